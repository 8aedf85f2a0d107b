package webhook

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// Policy says which addresses a delivery may connect to
// (docs/webhooks.md, Destinations). A tenant names the URL, so without
// it a webhook could reach the server's own loopback services, the
// cloud metadata address or the LAN behind it. The zero Policy refuses
// loopback, link-local, unspecified, multicast and private addresses.
type Policy struct {
	// Allow names prefixes that are allowed whatever their class: the
	// operator's --webhook-allow.
	Allow []netip.Prefix
	// AllowPrivate allows the private ranges (10/8, 172.16/12,
	// 192.168/16, 100.64/10, fc00::/7): --webhook-allow-private, for
	// receivers on the LAN.
	AllowPrivate bool
}

// privateRanges are the private and shared (CGNAT) ranges
// [Policy.AllowPrivate] opens: a read-only table.
var privateRanges = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("fc00::/7"),
}

// thisNetwork is 0.0.0.0/8, which Linux dials as the local host;
// read-only.
var thisNetwork = netip.MustParsePrefix("0.0.0.0/8")

// RefusedError is a destination the policy refuses: Class is
// "loopback", "link-local", "unspecified", "multicast" or "private".
type RefusedError struct {
	Addr  netip.Addr
	Class string
}

func (e *RefusedError) Error() string {
	hint := "--webhook-allow CIDR"
	if e.Class == "private" {
		hint = "--webhook-allow-private (or --webhook-allow CIDR)"
	}
	return fmt.Sprintf("webhook destination %s is a %s address: refused unless the server is started with %s", e.Addr, e.Class, hint)
}

// Addresses that carry an IPv4 address in their last 32 bits: the
// IPv4-compatible ::/96 (deprecated) and NAT64's well-known 64:ff9b::/96,
// which a NAT64 gateway forwards to that IPv4 address. Read-only.
var (
	v4Compatible = netip.MustParsePrefix("::/96")
	nat64        = netip.MustParsePrefix("64:ff9b::/96")
)

// unwrap returns the IPv4 address that the IPv6 address a stands for, if any,
// else a, without a zone.
func unwrap(a netip.Addr) netip.Addr {
	a = a.Unmap().WithZone("")
	if (v4Compatible.Contains(a) && a != netip.IPv6Loopback() && a != netip.IPv6Unspecified()) || nat64.Contains(a) {
		b := a.As16()
		return netip.AddrFrom4([4]byte(b[12:]))
	}
	return a
}

// Check returns nil when a delivery may connect to a, or a
// [*RefusedError]. An IPv6 address that stands for an IPv4 one
// (IPv4-mapped ::ffff:127.0.0.1, IPv4-compatible, NAT64 64:ff9b::/96)
// is checked as that IPv4 address.
func (p Policy) Check(a netip.Addr) error {
	a = unwrap(a)
	for _, pre := range p.Allow {
		if pre.Contains(a) {
			return nil
		}
	}
	class := ""
	switch {
	case a.IsLoopback():
		class = "loopback"
	case a.IsUnspecified() || thisNetwork.Contains(a):
		class = "unspecified"
	case a.IsMulticast() || a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		class = "multicast"
	case a.IsLinkLocalUnicast():
		class = "link-local" // 169.254.169.254, the cloud metadata service, is one
	case !p.AllowPrivate && isPrivate(a):
		class = "private"
	default:
		return nil
	}
	return &RefusedError{Addr: a, Class: class}
}

func isPrivate(a netip.Addr) bool {
	for _, pre := range privateRanges {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// CheckHost is the up-front check of a URL's host: a literal IP or a
// localhost name the policy refuses is a [*RefusedError]; any other
// name is left to the check at dial time, on the address it resolves
// to then.
func (p Policy) CheckHost(host string) error {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		// It resolves to 127.0.0.1 or ::1: refused when both are.
		err := p.Check(netip.AddrFrom4([4]byte{127, 0, 0, 1}))
		if err != nil && p.Check(netip.IPv6Loopback()) == nil {
			return nil
		}
		return err
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return p.Check(a)
	}
	return nil
}

// control is the dialer's Control: it checks the address about to be
// connected to, after name resolution, so a name that resolves to a
// refused address (DNS rebinding included) is refused.
func (p Policy) control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("webhook: dial address %q: %w", address, err)
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("webhook: dial address %q: %w", address, err)
	}
	return p.Check(a)
}
