package linalg

import "testing"

// TestCoreTypeFor checks the OpenBLAS kernel set gitui asks for: only over the Prescott
// fallback, never over the user's OPENBLAS_CORETYPE, and only one the CPU can run.
func TestCoreTypeFor(t *testing.T) {
	avx2 := cpuFeatures{AVX2: true, FMA: true}
	avx512 := avx2
	avx512.AVX512F, avx512.AVX512BW, avx512.AVX512DQ, avx512.AVX512VL, avx512.AVX512CD = true, true, true, true, true
	bf16 := avx512
	bf16.AVX512BF16 = true
	partial := avx2
	partial.AVX512F = true // AVX-512 foundation alone (Knights Landing) is not SkylakeX
	for _, c := range []struct {
		detected string
		userSet  bool
		f        cpuFeatures
		want     string
	}{
		{"Prescott", false, bf16, "Cooperlake"}, // Emerald Rapids under OpenBLAS 0.3.21
		{"PRESCOTT", false, avx512, "SkylakeX"},
		{"Prescott", false, partial, "Haswell"},
		{"Prescott", false, avx2, "Haswell"},
		{"Prescott", false, cpuFeatures{}, ""}, // a real SSE3-only CPU keeps its kernels
		{"Prescott", true, bf16, ""},           // the user chose
		{"SkylakeX", false, bf16, ""},          // OpenBLAS knew the CPU
		{"Haswell", false, avx512, ""},
		{"Zen", false, avx2, ""},
	} {
		if got := coreTypeFor(c.detected, c.userSet, c.f); got != c.want {
			t.Errorf("coreTypeFor(%q, userSet %v, %+v) = %q, want %q", c.detected, c.userSet, c.f, got, c.want)
		}
	}
}
