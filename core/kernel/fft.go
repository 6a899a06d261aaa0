package kernel

import (
	"fmt"
	"math"
)

// fftPlan is a batched complex discrete Fourier transform of length n along the first
// axis of an n×L row-major array of complex128 (element t of the sequence is the row
// x[t·L : (t+1)·L]; the L columns are independent transforms):
//
//	forward:  X[k] = sum_t x[t] · exp(-2πi·k·t/n)
//	inverse:  x[t] = sum_k X[k] · exp(+2πi·k·t/n)     (unnormalised)
//
// It is a mixed-radix Stockham autosort transform (decimation in frequency, out of
// place, ping-pong between two buffers, natural order in and out) with hand-written
// radix-2, 3, 4 and 7 butterflies and a plain DFT for other prime factors. Every
// butterfly runs over a contiguous run of s·L values with one twiddle, so the inner
// loops are long and branch-free for batched data. 28 = 4·7 and 64 = 4·4·4 (MNIST and
// the paper's 64×64 digits) use only the unrolled kernels. A plan is immutable and
// safe for concurrent use; the buffers belong to the caller.
type fftPlan struct {
	n      int
	stages []fftStage
}

// fftStage is one radix-r step on subsequences of length r·m with stride s.
type fftStage struct {
	r, m, s int
	twf     []complex128 // forward twiddles: twf[p·(r-1) + u-1] = exp(-2πi·p·u/(r·m))
	twi     []complex128 // inverse twiddles (conjugates)
	omf     []complex128 // forward roots of unity of order r (generic radix only)
	omi     []complex128
}

// newFFTPlan returns the plan of length n. It panics if n < 1.
func newFFTPlan(n int) *fftPlan {
	if n < 1 {
		panic(fmt.Sprintf("kernel: FFT length %d must be at least 1", n))
	}
	p := &fftPlan{n: n}
	s := 1
	for rest := n; rest > 1; {
		r := pickRadix(rest)
		m := rest / r
		st := fftStage{r: r, m: m, s: s}
		st.twf = make([]complex128, m*(r-1))
		st.twi = make([]complex128, m*(r-1))
		for q := range m {
			for u := 1; u < r; u++ {
				// exp(-2πi·q·u/rest), exact at multiples of a quarter turn.
				sn, cs := sinCosTurn(q*u, rest)
				st.twf[q*(r-1)+u-1] = complex(cs, -sn)
				st.twi[q*(r-1)+u-1] = complex(cs, sn)
			}
		}
		if r != 2 && r != 3 && r != 4 && r != 7 {
			st.omf = make([]complex128, r)
			st.omi = make([]complex128, r)
			for u := range r {
				sn, cs := sinCosTurn(u, r)
				st.omf[u] = complex(cs, -sn)
				st.omi[u] = complex(cs, sn)
			}
		}
		p.stages = append(p.stages, st)
		s *= r
		rest = m
	}
	return p
}

// sinCosTurn returns sin and cos of 2π·a/b, exact at multiples of a quarter turn.
func sinCosTurn(a, b int) (sn, cs float64) {
	a %= b
	switch {
	case a == 0:
		return 0, 1
	case 4*a == b:
		return 1, 0
	case 2*a == b:
		return 0, -1
	case 4*a == 3*b:
		return -1, 0
	}
	return math.Sincos(2 * math.Pi * float64(a) / float64(b))
}

// pickRadix returns the next radix for a remaining length n > 1: 4 while 4 divides n,
// then 2, 3, 7, then the smallest other prime factor (plain DFT kernel).
func pickRadix(n int) int {
	switch {
	case n%4 == 0:
		return 4
	case n%2 == 0:
		return 2
	case n%3 == 0:
		return 3
	case n%7 == 0:
		return 7
	}
	for f := 5; f*f <= n; f += 2 {
		if n%f == 0 {
			return f
		}
	}
	return n
}

// transform runs the plan on x (n×L, modified: it is one of the two ping-pong buffers)
// with scratch y (at least n·L) and returns the slice holding the result, x or y.
// It panics if x or y is shorter than n·L.
func (p *fftPlan) transform(x, y []complex128, L int, inverse bool) []complex128 {
	nl := p.n * L
	if len(x) < nl || len(y) < nl {
		panic(fmt.Sprintf("kernel: FFT buffers of %d and %d values, need %d", len(x), len(y), nl))
	}
	x, y = x[:nl], y[:nl]
	for i := range p.stages {
		st := &p.stages[i]
		switch st.r {
		case 2:
			st.radix2(x, y, L, inverse)
		case 3:
			st.radix3(x, y, L, inverse)
		case 4:
			st.radix4(x, y, L, inverse)
		case 7:
			st.radix7(x, y, L, inverse)
		default:
			st.generic(x, y, L, inverse)
		}
		x, y = y, x
	}
	return x
}

// Each radix kernel computes, for q in [0, m) and every value v of the run of s·L
// values,
//
//	a_t = x[(q + t·m)·s·L + v],  t = 0..r-1
//	y[(r·q + u)·s·L + v] = (sum_t a_t·ω_r^{t·u}) · w^{q·u},   w = exp(∓2πi/(r·m)).

func (st *fftStage) tw(inverse bool) []complex128 {
	if inverse {
		return st.twi
	}
	return st.twf
}

func (st *fftStage) radix2(x, y []complex128, L int, inverse bool) {
	run := st.s * L
	tw := st.tw(inverse)
	for q := range st.m {
		a0 := x[q*run : q*run+run]
		a1 := x[(q+st.m)*run : (q+st.m)*run+run]
		b0 := y[2*q*run : 2*q*run+run]
		b1 := y[(2*q+1)*run : (2*q+1)*run+run]
		w := tw[q]
		if q == 0 {
			for v := range a0 {
				u0, u1 := a0[v], a1[v]
				b0[v], b1[v] = u0+u1, u0-u1
			}
			continue
		}
		for v := range a0 {
			u0, u1 := a0[v], a1[v]
			b0[v], b1[v] = u0+u1, (u0-u1)*w
		}
	}
}

func (st *fftStage) radix3(x, y []complex128, L int, inverse bool) {
	run := st.s * L
	tw := st.tw(inverse)
	const c1 = -0.5
	s1 := -math.Sqrt(3) / 2 // sin(-2π/3), forward
	if inverse {
		s1 = -s1
	}
	m := st.m
	for q := range m {
		a0 := x[q*run : q*run+run]
		a1 := x[(q+m)*run : (q+m)*run+run]
		a2 := x[(q+2*m)*run : (q+2*m)*run+run]
		b0 := y[3*q*run : 3*q*run+run]
		b1 := y[(3*q+1)*run : (3*q+1)*run+run]
		b2 := y[(3*q+2)*run : (3*q+2)*run+run]
		w1, w2 := tw[2*q], tw[2*q+1]
		for v := range a0 {
			u0, u1, u2 := a0[v], a1[v], a2[v]
			sr, si := real(u1)+real(u2), imag(u1)+imag(u2)
			dr, di := real(u1)-real(u2), imag(u1)-imag(u2)
			tr, ti := real(u0)+c1*sr, imag(u0)+c1*si
			// ω·d term: i·s1·d = (-s1·di, s1·dr)
			b0[v] = complex(real(u0)+sr, imag(u0)+si)
			b1[v] = complex(tr-s1*di, ti+s1*dr) * w1
			b2[v] = complex(tr+s1*di, ti-s1*dr) * w2
		}
	}
}

func (st *fftStage) radix4(x, y []complex128, L int, inverse bool) {
	run := st.s * L
	tw := st.tw(inverse)
	m := st.m
	for q := range m {
		a0 := x[q*run : q*run+run]
		a1 := x[(q+m)*run : (q+m)*run+run]
		a2 := x[(q+2*m)*run : (q+2*m)*run+run]
		a3 := x[(q+3*m)*run : (q+3*m)*run+run]
		b0 := y[4*q*run : 4*q*run+run]
		b1 := y[(4*q+1)*run : (4*q+1)*run+run]
		b2 := y[(4*q+2)*run : (4*q+2)*run+run]
		b3 := y[(4*q+3)*run : (4*q+3)*run+run]
		a1, a2, a3 = a1[:len(a0)], a2[:len(a0)], a3[:len(a0)]
		b0, b1, b2, b3 = b0[:len(a0)], b1[:len(a0)], b2[:len(a0)], b3[:len(a0)]
		if q == 0 {
			for v := range a0 {
				s02r, s02i := real(a0[v])+real(a2[v]), imag(a0[v])+imag(a2[v])
				d02r, d02i := real(a0[v])-real(a2[v]), imag(a0[v])-imag(a2[v])
				s13r, s13i := real(a1[v])+real(a3[v]), imag(a1[v])+imag(a3[v])
				d13r, d13i := real(a1[v])-real(a3[v]), imag(a1[v])-imag(a3[v])
				b0[v] = complex(s02r+s13r, s02i+s13i)
				b2[v] = complex(s02r-s13r, s02i-s13i)
				// forward: b1 = d02 - i·d13, b3 = d02 + i·d13
				if inverse {
					b1[v] = complex(d02r-d13i, d02i+d13r)
					b3[v] = complex(d02r+d13i, d02i-d13r)
				} else {
					b1[v] = complex(d02r+d13i, d02i-d13r)
					b3[v] = complex(d02r-d13i, d02i+d13r)
				}
			}
			continue
		}
		w1, w2, w3 := tw[3*q], tw[3*q+1], tw[3*q+2]
		for v := range a0 {
			s02r, s02i := real(a0[v])+real(a2[v]), imag(a0[v])+imag(a2[v])
			d02r, d02i := real(a0[v])-real(a2[v]), imag(a0[v])-imag(a2[v])
			s13r, s13i := real(a1[v])+real(a3[v]), imag(a1[v])+imag(a3[v])
			d13r, d13i := real(a1[v])-real(a3[v]), imag(a1[v])-imag(a3[v])
			b0[v] = complex(s02r+s13r, s02i+s13i)
			b2[v] = complex(s02r-s13r, s02i-s13i) * w2
			if inverse {
				b1[v] = complex(d02r-d13i, d02i+d13r) * w1
				b3[v] = complex(d02r+d13i, d02i-d13r) * w3
			} else {
				b1[v] = complex(d02r+d13i, d02i-d13r) * w1
				b3[v] = complex(d02r-d13i, d02i+d13r) * w3
			}
		}
	}
}

// Radix-7 constants: cos and sin of 2π·k/7.
var (
	c7_1, c7_2, c7_3 = math.Cos(2 * math.Pi / 7), math.Cos(4 * math.Pi / 7), math.Cos(6 * math.Pi / 7)
	s7_1, s7_2, s7_3 = math.Sin(2 * math.Pi / 7), math.Sin(4 * math.Pi / 7), math.Sin(6 * math.Pi / 7)
)

func (st *fftStage) radix7(x, y []complex128, L int, inverse bool) {
	run := st.s * L
	tw := st.tw(inverse)
	m := st.m
	sg := 1.0
	if inverse {
		sg = -1
	}
	for q := range m {
		a0 := x[q*run : q*run+run]
		n := len(a0)
		var a, b [7][]complex128
		for t := range 7 {
			a[t] = x[(q+t*m)*run : (q+t*m)*run+n]
			b[t] = y[(7*q+t)*run : (7*q+t)*run+n]
		}
		dft7rows(a, b, sg)
		if q == 0 {
			continue
		}
		w := tw[6*q : 6*q+6]
		for u, bu := range b[1:] {
			wu := w[u]
			for v := range bu {
				bu[v] *= wu
			}
		}
	}
}

// dft7rows computes, for every v, the 7-point transform of the column a[0..6][v],
//
//	b[u][v] = sum_t a[t][v]·exp(-sign·2πi·t·u/7),
//
// (sign = +1 forward, -1 inverse) as b_u = T_u - i·U_u, b_{7-u} = T_u + i·U_u with
// T_u = a0 + sum_k cos(2πku/7)(a_k + a_{7-k}) and U_u = sign·sum_k sin(2πku/7)(a_k - a_{7-k}).
// All rows have the length of a[0]; b must not alias a.
func dft7rows(a, b [7][]complex128, sign float64) {
	n := len(a[0])
	a0, a1, a2, a3, a4, a5, a6 := a[0][:n], a[1][:n], a[2][:n], a[3][:n], a[4][:n], a[5][:n], a[6][:n]
	b0, b1, b2, b3, b4, b5, b6 := b[0][:n], b[1][:n], b[2][:n], b[3][:n], b[4][:n], b[5][:n], b[6][:n]
	c1, c2, c3 := c7_1, c7_2, c7_3
	s1, s2, s3 := sign*s7_1, sign*s7_2, sign*s7_3
	for v := range a0 {
		x0r, x0i := real(a0[v]), imag(a0[v])
		p1r, p1i := real(a1[v])+real(a6[v]), imag(a1[v])+imag(a6[v])
		m1r, m1i := real(a1[v])-real(a6[v]), imag(a1[v])-imag(a6[v])
		p2r, p2i := real(a2[v])+real(a5[v]), imag(a2[v])+imag(a5[v])
		m2r, m2i := real(a2[v])-real(a5[v]), imag(a2[v])-imag(a5[v])
		p3r, p3i := real(a3[v])+real(a4[v]), imag(a3[v])+imag(a4[v])
		m3r, m3i := real(a3[v])-real(a4[v]), imag(a3[v])-imag(a4[v])
		t1r := x0r + c1*p1r + c2*p2r + c3*p3r
		t1i := x0i + c1*p1i + c2*p2i + c3*p3i
		t2r := x0r + c2*p1r + c3*p2r + c1*p3r
		t2i := x0i + c2*p1i + c3*p2i + c1*p3i
		t3r := x0r + c3*p1r + c1*p2r + c2*p3r
		t3i := x0i + c3*p1i + c1*p2i + c2*p3i
		u1r := s1*m1r + s2*m2r + s3*m3r
		u1i := s1*m1i + s2*m2i + s3*m3i
		u2r := s2*m1r - s3*m2r - s1*m3r
		u2i := s2*m1i - s3*m2i - s1*m3i
		u3r := s3*m1r - s1*m2r + s2*m3r
		u3i := s3*m1i - s1*m2i + s2*m3i
		b0[v] = complex(x0r+p1r+p2r+p3r, x0i+p1i+p2i+p3i)
		// T - i·U = (Tr + Ui, Ti - Ur); T + i·U = (Tr - Ui, Ti + Ur)
		b1[v] = complex(t1r+u1i, t1i-u1r)
		b6[v] = complex(t1r-u1i, t1i+u1r)
		b2[v] = complex(t2r+u2i, t2i-u2r)
		b5[v] = complex(t2r-u2i, t2i+u2r)
		b3[v] = complex(t3r+u3i, t3i-u3r)
		b4[v] = complex(t3r-u3i, t3i+u3r)
	}
}

func (st *fftStage) generic(x, y []complex128, L int, inverse bool) {
	run := st.s * L
	tw, om := st.twf, st.omf
	if inverse {
		tw, om = st.twi, st.omi
	}
	r, m := st.r, st.m
	for q := range m {
		for u := range r {
			b := y[(r*q+u)*run : (r*q+u)*run+run]
			clear(b)
			for t := range r {
				a := x[(q+t*m)*run : (q+t*m)*run+run]
				w := om[(t*u)%r]
				for v := range b {
					b[v] += a[v] * w
				}
			}
			if q > 0 && u > 0 {
				wu := tw[q*(r-1)+u-1]
				for v := range b {
					b[v] *= wu
				}
			}
		}
	}
}
