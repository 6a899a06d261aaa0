package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
)

// profileFlags are the hidden profiling flags of `gitui run` and `gitui tune` (for developers; not in
// its help): --cpuprofile FILE writes a CPU profile of the whole run, --memprofile FILE
// a heap profile taken when the live heap was largest (its inuse_space view is the
// memory held at that peak, its alloc_space view everything allocated until then).
type profileFlags struct {
	cpu, mem string
}

// splitProfileFlags removes --cpuprofile and --memprofile (also with one dash and in
// the NAME=FILE form) from args and returns the rest. A flag without its file is an
// error naming it.
func splitProfileFlags(args []string) ([]string, profileFlags, error) {
	var p profileFlags
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || (name != "cpuprofile" && name != "memprofile") {
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, p, usagef("--%s needs a file name: --%s FILE", name, name)
			}
			i++
			val = args[i]
		}
		if val == "" {
			return nil, p, usagef("--%s needs a file name: --%s FILE", name, name)
		}
		if name == "cpuprofile" {
			p.cpu = val
		} else {
			p.mem = val
		}
	}
	return rest, p, nil
}

// start begins the requested profiles and returns the function that ends them and
// writes the files; its error names the file.
func (p profileFlags) start(stderr io.Writer) (stop func() error, err error) {
	var cpuFile *os.File
	if p.cpu != "" {
		if cpuFile, err = os.Create(p.cpu); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpuFile); err != nil {
			cpuFile.Close()
			return nil, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)
		}
	}
	var heap *peakHeap
	if p.mem != "" {
		heap = newPeakHeap()
	}
	return func() error {
		var errs []error
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err))
			}
		}
		if heap != nil {
			if err := heap.finish(p.mem, stderr); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile %s: %w", p.mem, err))
			}
		}
		if len(errs) > 0 {
			return errs[0]
		}
		return nil
	}, nil
}

// peakHeap keeps the heap profile taken when the live heap was largest: every 250 ms it
// reads the heap's object bytes and, at a new maximum (by 2% or more), writes the heap
// profile into memory.
type peakHeap struct {
	mu   sync.Mutex
	best []byte
	peak uint64
	done chan struct{}
	wg   sync.WaitGroup
}

func newPeakHeap() *peakHeap {
	runtime.MemProfileRate = 64 << 10 // finer than the default 512 KiB sampling
	h := &peakHeap{done: make(chan struct{})}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-h.done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > h.peak+h.peak/50 {
				h.snap(v)
			}
		}
	}()
	return h
}

// snap stores the current heap profile as the one at peak bytes v.
func (h *peakHeap) snap(v uint64) {
	var b strings.Builder
	if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
		return
	}
	h.mu.Lock()
	h.best, h.peak = []byte(b.String()), v
	h.mu.Unlock()
}

// finish stops sampling and writes the profile at the peak (or the current one if no
// sample was taken) to name.
func (h *peakHeap) finish(name string, stderr io.Writer) error {
	close(h.done)
	h.wg.Wait()
	if h.best == nil {
		h.snap(0)
	}
	fmt.Fprintf(stderr, "memprofile: heap objects peaked at %.0f MB; profile at that peak in %s\n", float64(h.peak)/1e6, name)
	return os.WriteFile(name, h.best, 0o644)
}
