package cli

import (
	"fmt"
	"net/netip"
	"strconv"
)

// parseAllow parses --webhook-allow's comma-separated list: CIDR
// prefixes, or bare addresses (a /32 or /128). An IPv4-mapped IPv6
// prefix is taken as the IPv4 one, as the policy unwraps addresses.
func parseAllow(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range splitList(list) {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("--webhook-allow: %q is not a CIDR prefix or an address", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// parseBoolEnv reads a boolean environment variable: empty is false.
func parseBoolEnv(name, v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not true or false", name, v)
	}
	return b, nil
}
