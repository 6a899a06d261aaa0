package linalg

import "strings"

// cpuFeatures are the instruction sets that decide which OpenBLAS kernels a CPU can run.
type cpuFeatures struct {
	AVX2, FMA                      bool
	AVX512F, AVX512BW, AVX512DQ    bool
	AVX512VL, AVX512CD, AVX512BF16 bool
}

// coreTypeEnv is OpenBLAS's documented switch for builds with DYNAMIC_ARCH (Debian's):
// the kernel set to use instead of the one its CPU detection picks.
const coreTypeEnv = "OPENBLAS_CORETYPE"

// coreFixEnv marks a process that gitui re-executed with OPENBLAS_CORETYPE set: it holds
// the core OpenBLAS had detected. The re-executed process removes both variables from
// its environment at start-up, so the programs it starts (a Slurm array task on another
// node, say) detect their own CPU.
const coreFixEnv = "GITUI_OPENBLAS_DETECTED"

// coreTypeFor returns the OpenBLAS core type to ask for with OPENBLAS_CORETYPE, or "" to
// keep the detected one. It asks only when OpenBLAS fell back to "Prescott" (its SSE3
// kernels, the fallback of a DYNAMIC_ARCH build for a CPU model it does not know: OpenBLAS
// 0.3.21, Debian 12's, takes Emerald Rapids Xeons (model 207) for Prescott and multiplies
// at a fifth of their speed) on a CPU that has what a newer kernel set needs: AVX-512
// F/BW/DQ/VL/CD for "SkylakeX" ("Cooperlake" with AVX512_BF16 as well), else AVX2 and FMA
// for "Haswell". userSet reports that OPENBLAS_CORETYPE is already in the environment: the
// user's choice is kept.
func coreTypeFor(detected string, userSet bool, f cpuFeatures) string {
	if userSet || !strings.EqualFold(detected, "Prescott") {
		return ""
	}
	switch {
	case f.AVX512F && f.AVX512BW && f.AVX512DQ && f.AVX512VL && f.AVX512CD && f.AVX512BF16:
		return "Cooperlake"
	case f.AVX512F && f.AVX512BW && f.AVX512DQ && f.AVX512VL && f.AVX512CD:
		return "SkylakeX"
	case f.AVX2 && f.FMA:
		return "Haswell"
	}
	return ""
}
