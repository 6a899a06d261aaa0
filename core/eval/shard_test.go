package eval

import (
	"context"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
)

// TestShardsUnionEqualsWhole runs resumeProtocol as 1, 2, 3 and 7 shards (Only from
// AssignShards): every cell runs in exactly one shard, a shard lists exactly the others'
// cells as Missing, a stage none of whose cells is in a shard is not prepared there, and
// the shards' cells given together as Done reproduce the unsharded outcome exactly.
func TestShardsUnionEqualsWhole(t *testing.T) {
	whole := resumeProtocol(nil)
	want, err := whole.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	all := whole.CellCosts()
	if len(all) != 35 {
		t.Fatalf("CellCosts lists %d cells, want 35", len(all))
	}
	for _, n := range []int{1, 2, 3, 7} {
		assign := AssignShards(all, n)
		union := map[CellKey]Cell{}
		for i := range n {
			var prepared atomic.Int32
			p := resumeProtocol(&prepared)
			p.Only = func(k CellKey) bool { return assign[k] == i }
			var got []Cell
			p.OnCell = func(c Cell) error { got = append(got, c); return nil }
			out, err := p.Run(context.Background(), nil)
			if err != nil {
				t.Fatalf("%d/%d: %v", i, n, err)
			}
			s2 := false
			for _, c := range got {
				if _, dup := union[c.Key()]; dup {
					t.Fatalf("%d/%d: cell %+v ran in two shards", i, n, c.CellKey)
				}
				if assign[c.Key()] != i {
					t.Fatalf("%d/%d: ran cell %+v of shard %d", i, n, c.CellKey, assign[c.Key()])
				}
				union[c.Key()] = c
				s2 = s2 || c.Stage == "s2"
			}
			if len(got)+len(out.Missing) != len(all) {
				t.Errorf("%d/%d: %d cells run + %d missing, want %d", i, n, len(got), len(out.Missing), len(all))
			}
			// A method is prepared once per stage where this shard has a cell of it; each
			// series here belongs to one method of its stage.
			pairs := map[[2]string]bool{}
			for _, c := range got {
				pairs[[2]string{c.Stage, c.Series}] = true
			}
			if int(prepared.Load()) != len(pairs) {
				t.Errorf("%d/%d: %d Prepare calls, want %d (one per stage and method with a cell here)", i, n, prepared.Load(), len(pairs))
			}
		}
		if len(union) != len(all) {
			t.Fatalf("%d shards ran %d distinct cells, want %d", n, len(union), len(all))
		}
		p := resumeProtocol(nil)
		p.Done = union
		ran := 0
		p.OnCell = func(Cell) error { ran++; return nil }
		got, err := p.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if ran != 0 || len(got.Missing) != 0 || !reflect.DeepEqual(got.Series, want.Series) || !reflect.DeepEqual(got.Tables, want.Tables) {
			t.Errorf("%d shards merged: ran %d, missing %d, outcome equal %v", n, ran, len(got.Missing),
				reflect.DeepEqual(got.Series, want.Series) && reflect.DeepEqual(got.Tables, want.Tables))
		}
	}
}

// TestAssignShardsBalance: on seeded random costs the LPT assignment is deterministic,
// puts every cell in a shard in 0..n-1, and its largest shard is within Graham's bound
// of list scheduling, mean load + largest cell (Graham 1966; LPT's 4/3 OPT is tighter
// but OPT is not computable here).
func TestAssignShardsBalance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		cells := make([]CellCost, 1+rng.IntN(200))
		groups := 1 + rng.IntN(20)
		total, big := 0.0, 0.0
		gcost := map[string]float64{}
		for i := range cells {
			n := float64(10 + rng.IntN(1000))
			g := string(rune('a' + rng.IntN(groups)))
			cells[i] = CellCost{Key: CellKey{Series: "s", X: float64(i)}, Cost: n * n, Group: g}
			total += n * n
			big = max(big, n*n)
			gcost[g] += n * n
		}
		count := 1 + rng.IntN(9)
		a := AssignShards(cells, count)
		if b := AssignShards(cells, count); !reflect.DeepEqual(a, b) {
			t.Fatalf("trial %d: two assignments differ", trial)
		}
		load := make([]float64, count)
		for _, c := range cells {
			s, ok := a[c.Key]
			if !ok || s < 0 || s >= count {
				t.Fatalf("trial %d: cell %v in shard %d (ok %v)", trial, c.Key, s, ok)
			}
			load[s] += c.Cost
		}
		shardOf := map[string]map[int]bool{}
		for _, c := range cells {
			if shardOf[c.Group] == nil {
				shardOf[c.Group] = map[int]bool{}
			}
			shardOf[c.Group][a[c.Key]] = true
		}
		for g, sh := range shardOf {
			if gcost[g] <= total/float64(2*count) && len(sh) != 1 {
				t.Errorf("trial %d: group %s (cost %.3g, half share %.3g) split over %d shards", trial, g, gcost[g], total/float64(2*count), len(sh))
			}
		}
		bound := total/float64(count) + max(total/float64(2*count), big)
		worst := 0.0
		for _, l := range load {
			worst = max(worst, l)
		}
		if worst > bound*(1+1e-12) {
			t.Errorf("trial %d: %d cells in %d shards: largest shard %.4g > mean + largest cell %.4g", trial, len(cells), count, worst, bound)
		}
	}
}
