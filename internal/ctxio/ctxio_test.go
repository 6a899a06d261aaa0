package ctxio

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReader checks reads pass through until the context is cancelled, then fail with
// the context's error.
func TestReader(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := Reader(ctx, strings.NewReader("abcdef"))
	p := make([]byte, 3)
	if n, err := r.Read(p); n != 3 || err != nil || string(p) != "abc" {
		t.Fatalf("Read = %d, %v, %q", n, err, p)
	}
	cancel()
	if n, err := r.Read(p); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("Read after cancel = %d, %v; want 0, context.Canceled", n, err)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadAll after cancel: %v", err)
	}
}

// TestReaderAt checks ReaderAt as TestReader checks Reader.
func TestReaderAt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := ReaderAt(ctx, strings.NewReader("abcdef"))
	p := make([]byte, 2)
	if n, err := r.ReadAt(p, 3); n != 2 || err != nil || string(p) != "de" {
		t.Fatalf("ReadAt = %d, %v, %q", n, err, p)
	}
	cancel()
	if n, err := r.ReadAt(p, 0); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadAt after cancel = %d, %v; want 0, context.Canceled", n, err)
	}
}
