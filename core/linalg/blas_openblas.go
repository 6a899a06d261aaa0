//go:build openblas

package linalg

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
// int openblas_get_num_threads(void);
// char* openblas_get_corename(void);
// char* openblas_get_config(void);
import "C"

import (
	"fmt"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	fixCoreType()
	blas64.Use(netlib.Implementation{})
	blas32.Use(netlib.Implementation{})
	version := "OpenBLAS"
	if f := strings.Fields(C.GoString(C.openblas_get_config())); len(f) >= 2 { // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..."
		version = f[0] + " " + f[1]
	}
	blasName = "OpenBLAS (cgo)"
	blasCore = version + ", core " + C.GoString(C.openblas_get_corename())
	setThreads = func(n int) int {
		prev := int(C.openblas_get_num_threads())
		C.openblas_set_num_threads(C.int(n))
		return prev
	}
	// One OpenBLAS thread per call: the engine runs GOMAXPROCS goroutines over blocks.
	setThreads(1)
}

// fixCoreType re-executes the program with OPENBLAS_CORETYPE set when OpenBLAS has fallen
// back to its Prescott kernels on a CPU that can run faster ones (coreTypeFor). OpenBLAS
// reads the variable once, when the library loads, before any Go code runs, so the
// process must start again; syscall.Exec keeps its PID, arguments, open files and
// terminal. In the re-executed process it removes the variable (and gitui's marker) so
// that the programs it starts detect their own CPU, and notes the fix in [BLASCore]. If
// the re-execution fails, the program goes on with the detected kernels and [BLASCore]
// says why.
func fixCoreType() {
	if detected, ok := os.LookupEnv(coreFixEnv); ok {
		os.Unsetenv(coreFixEnv)
		os.Unsetenv(coreTypeEnv)
		blasCoreNote = "; OpenBLAS detected " + detected + ", gitui set " + coreTypeEnv
		return
	}
	_, userSet := os.LookupEnv(coreTypeEnv)
	detected := C.GoString(C.openblas_get_corename())
	want := coreTypeFor(detected, userSet, cpuFeatures{
		AVX2: cpu.X86.HasAVX2, FMA: cpu.X86.HasFMA,
		AVX512F: cpu.X86.HasAVX512F, AVX512BW: cpu.X86.HasAVX512BW, AVX512DQ: cpu.X86.HasAVX512DQ,
		AVX512VL: cpu.X86.HasAVX512VL, AVX512CD: cpu.X86.HasAVX512CD, AVX512BF16: cpu.X86.HasAVX512BF16,
	})
	if want == "" {
		return
	}
	exe, err := os.Executable()
	if err == nil {
		env := append(os.Environ(), coreTypeEnv+"="+want, coreFixEnv+"="+detected)
		err = syscall.Exec(exe, os.Args, env) // returns only on failure
	}
	blasCoreNote = fmt.Sprintf("; gitui could not restart with %s=%s (%v): set it yourself for speed", coreTypeEnv, want, err)
}
