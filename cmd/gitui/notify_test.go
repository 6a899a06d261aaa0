package main

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestNotifyHangup sends SIGHUP to this process under notify: for the TUI it arrives
// on the hup channel and does not cancel the context (the workbench lets its run
// finish), a repeat is dropped rather than killing the process, and SIGTERM still
// cancels; for the other commands SIGHUP cancels the context and sig reports it.
func TestNotifyHangup(t *testing.T) {
	ctx, _, hup, stop := notify(io.Discard, true)
	if hup == nil {
		t.Fatal("no hup channel for the TUI")
	}
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	select {
	case s := <-hup:
		if s != syscall.SIGHUP {
			t.Fatalf("hup delivered %v", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SIGHUP did not arrive on hup")
	}
	syscall.Kill(os.Getpid(), syscall.SIGHUP) // a repeat: dropped or queued, never fatal
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	time.Sleep(200 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatal("SIGHUP cancelled the TUI's context")
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the TUI's context")
	}
	stop()

	ctx, sig, hup, stop := notify(io.Discard, false)
	defer stop()
	if hup != nil {
		t.Fatal("a hup channel outside the TUI")
	}
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	select {
	case <-ctx.Done():
		if sig() != syscall.SIGHUP {
			t.Fatalf("sig() = %v, want SIGHUP", sig())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SIGHUP did not cancel the context of a headless command")
	}
}
