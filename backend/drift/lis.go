package drift

// lis returns the indices into ps of a longest subsequence whose j strictly
// increase; ps is sorted by i, so the result is a set of pairs in the same
// order in both timelines. It is patience sorting with back links,
// O(k log k) for k pairs; when nothing moved, which is the usual case,
// one pass finds every pair in order.
func lis(ps []pair) []int {
	inOrder := true
	for n := 1; n < len(ps) && inOrder; n++ {
		inOrder = ps[n-1].j < ps[n].j
	}
	if inOrder {
		out := make([]int, len(ps))
		for n := range out {
			out[n] = n
		}
		return out
	}
	// tails[k] is the pair ending the increasing run of length k+1 with the
	// smallest j seen so far; back[n] is the pair before n in its run.
	var tails []int
	back := make([]int, len(ps))
	for n, p := range ps {
		lo, hi := 0, len(tails)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if ps[tails[mid]].j < p.j {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		back[n] = -1
		if lo > 0 {
			back[n] = tails[lo-1]
		}
		if lo == len(tails) {
			tails = append(tails, n)
		} else {
			tails[lo] = n
		}
	}
	out := make([]int, len(tails))
	for k, n := len(out)-1, tails[len(tails)-1]; k >= 0; k, n = k-1, back[n] {
		out[k] = n
	}
	return out
}
