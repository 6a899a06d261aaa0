package runpane

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/eval"
	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

func TestETA(t *testing.T) {
	t0 := time.Unix(0, 0)
	// 10 of 40 done in 5 s: 30 left at 2 per second = 15 s (by the formula in ETA's doc).
	if e := ETA(10, 40, t0, t0.Add(5*time.Second)); e != 15*time.Second {
		t.Fatalf("ETA = %v, want 15s", e)
	}
	if ETA(0, 40, t0, t0.Add(time.Second)) != -1 || ETA(40, 40, t0, t0) != -1 {
		t.Fatal("ETA must be unknown before the first unit and after the last")
	}
}

func TestGoldenAndStates(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Start("run 1 xperm", t0)
	m.Progress(eval.Progress{Stage: "cells", Done: 0, Total: 40}, t0)
	m.Progress(eval.Progress{Stage: "cells", Done: 10, Total: 40}, t0.Add(5*time.Second))
	m.Log(eval.Log{Time: t0.Add(time.Second), Line: "data xperm: pool 7500"})
	if d, tot, ok := m.Stage("cells"); !ok || d != 10 || tot != 40 {
		t.Fatal("stage not recorded")
	}
	v := m.View()
	uitest.CheckFits(t, v, 80, 24)
	if !strings.Contains(ansi.Strip(v), "ETA 0:15") {
		t.Fatalf("no ETA:\n%s", ansi.Strip(v))
	}
	golden.RequireEqual(t, []byte(ansi.Strip(v)))
	m.Cancelling(t0.Add(6 * time.Second))
	m.Finish(context.Canceled, "3 points", t0.Add(7*time.Second))
	if !strings.HasPrefix(m.Result(), "cancelled") || m.Running() {
		t.Fatalf("result %q", m.Result())
	}
	m.Start("run 2", t0)
	m.Finish(errors.New("boom"), "", t0)
	if !strings.Contains(ansi.Strip(m.View()), "✗ failed: boom") {
		t.Fatal("failure not shown")
	}
	for i := 0; i < 2*maxLog; i++ {
		m.Logf(t0, "line %d", i)
	}
	if len(m.LogLines()) != maxLog {
		t.Fatalf("log holds %d lines, want %d", len(m.LogLines()), maxLog)
	}
}
