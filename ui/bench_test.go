package ui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/internal/uitest"
)

// fullApp returns a 200×60 app after a fake run (curves, log and heatmap filled),
// drawing in true colour (the costliest profile).
func fullApp(b testing.TB) *App {
	a := New(context.Background(), Options{Presets: testPresets()}, uitest.ColorStyles())
	a.now = func() time.Time { return t0 }
	a.tick = func(int) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	exec(b, a, a.Init())
	a.start = fakeStart
	press(b, a, "r")
	// A larger matrix, as the sample Gram would be (n = 200).
	n := 200
	d := make([]float64, n*n)
	lab := make([]int, n)
	for i := range lab {
		lab[i] = i * 10 / n
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d[i*n+j] = math.Exp(-math.Abs(float64(lab[i]-lab[j])) - 0.01*math.Abs(float64(i-j)))
		}
	}
	a.heat.Set(eval.Matrix{Name: "base rbf", N: n, Data: d, Labels: lab, MinEig: 0.01})
	a.heat.Set(eval.Matrix{Name: "invariant Haar", N: n, Data: d, Labels: lab, MinEig: -0.02})
	return a
}

// BenchmarkView measures one frame of the full layout at 200×60: "cached" is a frame
// after a key (charts unchanged), "redraw" a frame after a batch (curves and heatmap
// redrawn).
func BenchmarkView(b *testing.B) {
	a := fullApp(b)
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			_ = a.View()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/frame")
	})
	b.Run("redraw", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			a.curves.Add(eval.Point{Series: "raw RLS", X: 100, Mean: 0.7 + 1e-6*float64(i%100), Std: 0.02, Runs: 2})
			a.heat.SetStatus(fmt.Sprint(i), false)
			_ = a.View()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/frame")
	})
}

// stampWriter records when each write happened and what it held.
type stampWriter struct {
	mu     sync.Mutex
	writes []stamped
}

type stamped struct {
	at time.Time
	b  []byte
}

func (w *stampWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, stamped{time.Now(), append([]byte(nil), p...)})
	w.mu.Unlock()
	return len(p), nil
}

// firstAfter returns the time of the first write at or after t containing s.
func (w *stampWriter) firstAfter(t time.Time, s string) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, x := range w.writes {
		if !x.at.Before(t) && bytes.Contains(x.b, []byte(s)) {
			return x.at, true
		}
	}
	return time.Time{}, false
}

// timed wraps the app and records when a key reached Update and when the View that
// followed it returned, to split the key-to-frame latency into its hops.
type timed struct {
	*App
	mu             sync.Mutex
	gotKey, viewed time.Time
	pending        bool
}

func (m *timed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		m.mu.Lock()
		m.gotKey, m.pending = time.Now(), true
		m.mu.Unlock()
	}
	_, cmd := m.App.Update(msg)
	return m, cmd
}

func (m *timed) View() string {
	v := m.App.View()
	m.mu.Lock()
	if m.pending {
		m.viewed, m.pending = time.Now(), false
	}
	m.mu.Unlock()
	return v
}

// hops is one key press: write→Update, Update→View returned, View→frame written.
type hops struct{ input, process, flush, total time.Duration }

// keyLatencies runs the real program (20 fps renderer) while GOMAXPROCS goroutines
// burn CPU and a fake engine floods points, presses 1/2/3 in turn, and returns the
// time from each key to the first frame showing its effect.
func keyLatencies(tb testing.TB, presses int, flood bool) []hops {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stop atomic.Bool
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 1.0
			for !stop.Load() {
				for k := 0; k < 1e5; k++ {
					x = math.Sqrt(x + float64(k))
				}
			}
			_ = x
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()
	a := New(ctx, Options{Presets: testPresets()}, uitest.Styles())
	a.start = func(ctx context.Context, _ *model.Spec, _ engine.RunOptions) <-chan eval.Event {
		ch := make(chan eval.Event, 64)
		go func() { // a flood: about 100k points a second until cancelled
			defer close(ch)
			for i := 0; ; i++ {
				select {
				case ch <- eval.Point{Series: fmt.Sprint("s", i%4), X: float64(10 + i%50), Mean: 0.5 + 0.4*math.Sin(float64(i)), Std: 0.01, Runs: i}:
				case <-ctx.Done():
					ch <- eval.Done{Err: ctx.Err()}
					return
				}
				if !flood || i%1000 == 0 {
					time.Sleep(time.Millisecond) // without flood: at most 1000 events a second
				}
			}
		}()
		return ch
	}
	inR, inW := io.Pipe()
	out := &stampWriter{}
	tm := &timed{App: a}
	p := tea.NewProgram(tm, tea.WithContext(ctx), tea.WithInput(inR), tea.WithOutput(out), tea.WithFPS(60))
	done := make(chan struct{})
	go func() { p.Run(); close(done) }()
	p.Send(tea.WindowSizeMsg{Width: 200, Height: 60})
	time.Sleep(1500 * time.Millisecond) // data preview loads
	p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	time.Sleep(500 * time.Millisecond)
	var lat []hops
	markers := []string{"[Data]", "[Group]", "[Method]"}
	for i := 0; i < presses; i++ {
		k := (i + 1) % 3
		t := time.Now()
		inW.Write([]byte(fmt.Sprint(k + 1)))
		deadline := t.Add(2 * time.Second)
		for {
			if at, ok := out.firstAfter(t, markers[k]); ok {
				tm.mu.Lock()
				h := hops{input: tm.gotKey.Sub(t), process: tm.viewed.Sub(tm.gotKey), flush: at.Sub(tm.viewed), total: at.Sub(t)}
				tm.mu.Unlock()
				lat = append(lat, h)
				break
			}
			if time.Now().After(deadline) {
				tb.Errorf("key %d: no redraw within 2 s", k+1)
				break
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(30 * time.Millisecond)
	}
	p.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	<-done
	return lat
}

// BenchmarkKeyToRedraw reports the key-to-frame latency of the real program (20 fps
// renderer) while GOMAXPROCS goroutines saturate the cores and a run streams events
// (about 1000 a second; "flood": about 100k a second): median, 95th percentile and
// maximum of the total, and the medians of its hops (write→Update, Update→View
// returned, View→frame written, the last bounded by the 50 ms frame interval).
func BenchmarkKeyToRedraw(b *testing.B) {
	for _, flood := range []bool{false, true} {
		b.Run(fmt.Sprintf("flood=%v", flood), func(b *testing.B) {
			var all []hops
			for b.Loop() {
				all = append(all, keyLatencies(b, 30, flood)...)
			}
			if len(all) == 0 {
				return
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			med := func(get func(hops) time.Duration) []time.Duration {
				xs := make([]time.Duration, len(all))
				for i, h := range all {
					xs[i] = get(h)
				}
				sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
				return xs
			}
			tot := med(func(h hops) time.Duration { return h.total })
			b.ReportMetric(ms(tot[len(tot)/2]), "p50-ms")
			b.ReportMetric(ms(tot[len(tot)*95/100]), "p95-ms")
			b.ReportMetric(ms(tot[len(tot)-1]), "max-ms")
			b.ReportMetric(ms(med(func(h hops) time.Duration { return h.input })[len(all)/2]), "input-p50-ms")
			b.ReportMetric(ms(med(func(h hops) time.Duration { return h.process })[len(all)/2]), "update+view-p50-ms")
			b.ReportMetric(ms(med(func(h hops) time.Duration { return h.flush })[len(all)/2]), "flush-p50-ms")
		})
	}
}

// TestKeysRedrawUnderLoad checks that every key press is answered by a frame while
// the cores are saturated (functional only; BenchmarkKeyToRedraw reports the times).
func TestKeysRedrawUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("saturates the cores for a few seconds")
	}
	lat := keyLatencies(t, 6, true)
	t.Logf("key-to-frame latencies under load: %v", lat)
	if len(lat) != 6 {
		t.Fatalf("%d of 6 keys redrew", len(lat))
	}
}
