//go:build openblas

package linalg

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestOpenBLASCore checks, in this test binary (which started as any gitui binary does),
// that OpenBLAS does not run its Prescott kernels on a CPU with AVX2 and FMA, and that a
// process gitui re-executed with OPENBLAS_CORETYPE does not pass the variable on.
func TestOpenBLASCore(t *testing.T) {
	t.Logf("%s", BLASCore())
	if !strings.HasPrefix(BLASCore(), "OpenBLAS ") || !strings.Contains(BLASCore(), ", core ") {
		t.Fatalf("BLASCore() = %q, want \"OpenBLAS VERSION, core NAME...\"", BLASCore())
	}
	if blasCoreNote != "" {
		for _, v := range []string{coreTypeEnv, coreFixEnv} {
			if val, set := os.LookupEnv(v); set {
				t.Errorf("%s=%s is still in the environment of the re-executed process", v, val)
			}
		}
	} else if _, set := os.LookupEnv(coreTypeEnv); set {
		t.Skip("OPENBLAS_CORETYPE is set in the environment: the user's choice is kept")
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA && strings.Contains(blasCore, "core Prescott") {
		t.Errorf("OpenBLAS runs its Prescott kernels on a CPU with AVX2 and FMA: %s", BLASCore())
	}
}
