//go:build openblas

package learn

// #cgo LDFLAGS: -lopenblas
// extern void dsytrd_(char *uplo, int *n, double *a, int *lda, double *d, double *e,
//                     double *tau, double *work, int *lwork, int *info);
// extern void dsyevd_(char *jobz, char *uplo, int *n, double *a, int *lda, double *w,
//                     double *work, int *lwork, int *iwork, int *liwork, int *info);
// extern void dorgtr_(char *uplo, int *n, double *a, int *lda, double *tau,
//                     double *work, int *lwork, int *info);
import "C"

import (
	"fmt"
	"unsafe"

	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// With -tags openblas the reduction is LAPACK's dsytrd and dorgtr from the OpenBLAS
// library (blocked, BLAS3-rich: several times faster than gonum's Dsytrd). Both work in
// place with a workspace of r·64 floats, so reducing an n×n Gram matrix needs no
// second n² buffer (dsyevd, used before, copied the matrix and took 2n² more of
// workspace: 2.4 GB beside the 0.8 GB Gram matrix at n = 10,000).
// The eigendecompositions of symEigen (kernel PCA of the invariant SVM) stay with
// dsyevd.
func init() {
	fastReduce = lapackReduce
	fastEigen = dsyevdReduce
}

// lapackReduce overwrites the r×r row-major symmetric a (upper triangle read) with Q
// (row-major) and returns the tridiagonal form T, C = Q T Qᵀ. It returns false, with a
// unchanged, if the workspace queries report an error; LAPACK reports errors only for
// invalid arguments, so one from the reduction itself is a programmer error (panic).
func lapackReduce(a []float64, r int) (*tridiag, bool) {
	// Row-major upper triangle = column-major lower triangle of the same matrix.
	uplo := C.char('L')
	n, lda, info := C.int(r), C.int(r), C.int(0)
	t := &tridiag{r: r, diag: make([]float64, r), off: make([]float64, r-1), q: a}
	tau := make([]float64, r-1)
	var wq float64
	lwork := C.int(-1)
	ap := (*C.double)(unsafe.Pointer(&a[0]))
	C.dsytrd_(&uplo, &n, ap, &lda, (*C.double)(unsafe.Pointer(&t.diag[0])), (*C.double)(unsafe.Pointer(&t.off[0])),
		(*C.double)(unsafe.Pointer(&tau[0])), (*C.double)(unsafe.Pointer(&wq)), &lwork, &info)
	if info != 0 {
		return nil, false
	}
	lw := int(wq)
	C.dorgtr_(&uplo, &n, ap, &lda, (*C.double)(unsafe.Pointer(&tau[0])), (*C.double)(unsafe.Pointer(&wq)), &lwork, &info)
	if info != 0 {
		return nil, false
	}
	lw = max(lw, int(wq), 1)
	work := make([]float64, lw)
	lwork = C.int(lw)
	wp := (*C.double)(unsafe.Pointer(&work[0]))
	C.dsytrd_(&uplo, &n, ap, &lda, (*C.double)(unsafe.Pointer(&t.diag[0])), (*C.double)(unsafe.Pointer(&t.off[0])),
		(*C.double)(unsafe.Pointer(&tau[0])), wp, &lwork, &info)
	if info == 0 {
		C.dorgtr_(&uplo, &n, ap, &lda, (*C.double)(unsafe.Pointer(&tau[0])), wp, &lwork, &info)
	}
	if info != 0 {
		panic(fmt.Sprintf("learn: LAPACK reduction of a %d×%d matrix: argument %d is invalid", r, r, -int(info)))
	}
	// a holds Q column-major, i.e. Qᵀ row-major: transpose in place.
	for i := 0; i < r; i++ {
		for j := i + 1; j < r; j++ {
			a[i*r+j], a[j*r+i] = a[j*r+i], a[i*r+j]
		}
	}
	// Eigenvalues only: O(r²).
	var impl lapackgonum.Implementation
	t.eig = append([]float64(nil), t.diag...)
	e := append([]float64(nil), t.off...)
	if !impl.Dsterf(r, t.eig, e) {
		t.eig = gershgorin(t.diag, t.off)
	}
	return t, true
}

// dsyevdReduce overwrites the upper triangle of the r×r row-major symmetric a with the
// eigenvectors (as columns, row-major) and returns T = diag(eigenvalues). It returns
// false, leaving a unchanged, if dsyevd fails.
func dsyevdReduce(a []float64, r int) (*tridiag, bool) {
	// Row-major upper triangle = column-major lower triangle of the same matrix.
	work := append([]float64(nil), a...)
	w := make([]float64, r)
	jobz, uplo := C.char('V'), C.char('L')
	n, lda, info := C.int(r), C.int(r), C.int(0)
	lwork, liwork := C.int(-1), C.int(-1)
	var wq float64
	var iwq C.int
	C.dsyevd_(&jobz, &uplo, &n, (*C.double)(unsafe.Pointer(&work[0])), &lda, (*C.double)(unsafe.Pointer(&w[0])),
		(*C.double)(unsafe.Pointer(&wq)), &lwork, &iwq, &liwork, &info)
	if info != 0 {
		return nil, false
	}
	lwork, liwork = C.int(wq), iwq
	ws := make([]float64, int(lwork))
	iws := make([]C.int, int(liwork))
	C.dsyevd_(&jobz, &uplo, &n, (*C.double)(unsafe.Pointer(&work[0])), &lda, (*C.double)(unsafe.Pointer(&w[0])),
		(*C.double)(unsafe.Pointer(&ws[0])), &lwork, &iws[0], &liwork, &info)
	if info != 0 {
		return nil, false
	}
	// work holds the eigenvectors column-major, i.e. as rows in row-major order:
	// transpose into a so that column j of Q is eigenvector j.
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			a[i*r+j] = work[j*r+i]
		}
	}
	t := &tridiag{r: r, diag: w, off: make([]float64, r-1), q: a, eig: append([]float64(nil), w...)}
	return t, true
}
