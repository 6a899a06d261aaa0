package ui

import (
	"testing"
	"time"

	"gitui/core/eval"
)

func TestCoalesceKeepsOrderAndBounds(t *testing.T) {
	in := make(chan eval.Event)
	out := coalesce(in, time.Hour, 512) // only the count (and close) can end a batch here
	go func() {
		for i := 0; i < 1300; i++ {
			in <- eval.Progress{Stage: "s", Done: i}
		}
		close(in)
	}()
	var sizes []int
	next := 0
	for b := range out {
		sizes = append(sizes, len(b))
		for _, e := range b {
			if e.(eval.Progress).Done != next {
				t.Fatalf("event %d out of order", next)
			}
			next++
		}
	}
	// 1300 = 512 + 512 + 276: two full batches, then the rest when the input closes.
	if len(sizes) != 3 || sizes[0] != 512 || sizes[1] != 512 || sizes[2] != 276 {
		t.Fatalf("batch sizes %v, want [512 512 276]", sizes)
	}
}

func TestCoalesceTimeLimit(t *testing.T) {
	in := make(chan eval.Event)
	out := coalesce(in, 20*time.Millisecond, 512)
	in <- eval.Log{Line: "a"}
	start := time.Now()
	b := <-out // must come after ~20 ms although the input stays open
	if len(b) != 1 || time.Since(start) > time.Second {
		t.Fatalf("batch %v after %v", b, time.Since(start))
	}
	close(in)
	if _, ok := <-out; ok {
		t.Fatal("output not closed after input")
	}
}
