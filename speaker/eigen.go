package speaker

import "math"

// symEigenvalues returns the m smallest eigenvalues (ascending) and the
// largest eigenvalue of the symmetric n×n matrix a (row-major; a is
// overwritten). It reduces a to tridiagonal form by Householder
// reflections and finds each eigenvalue by bisection on the Sturm
// sequence count, which is exact in the count and accurate to a few ulps
// of the matrix's norm; O(n³) for the reduction, O(m·n) per bisection.
func symEigenvalues(a []float64, n, m int) (small []float64, largest float64) {
	d, e := tridiagonalize(a, n)
	// Gershgorin bounds of the tridiagonal matrix.
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		r := 0.0
		if i > 0 {
			r += math.Abs(e[i-1])
		}
		if i < n-1 {
			r += math.Abs(e[i])
		}
		lo, hi = min(lo, d[i]-r), max(hi, d[i]+r)
	}
	// kth returns the (k+1)-th smallest eigenvalue.
	kth := func(k int) float64 {
		l, h := lo, hi
		for range 100 {
			mid := (l + h) / 2
			if mid == l || mid == h {
				break
			}
			if sturmCount(d, e, mid) > k {
				h = mid
			} else {
				l = mid
			}
		}
		return (l + h) / 2
	}
	m = min(m, n)
	small = make([]float64, m)
	for k := range m {
		small[k] = kth(k)
	}
	return small, kth(n - 1)
}

// sturmCount returns the number of eigenvalues less than x of the
// symmetric tridiagonal matrix with diagonal d and off-diagonal e.
func sturmCount(d, e []float64, x float64) int {
	count := 0
	q := 1.0
	for i := range d {
		if i == 0 {
			q = d[0] - x
		} else {
			if q == 0 {
				q = 1e-300
			}
			q = d[i] - x - e[i-1]*e[i-1]/q
		}
		if q < 0 {
			count++
		}
	}
	return count
}

// tridiagonalize reduces the symmetric n×n matrix a (overwritten) to a
// tridiagonal matrix with the same eigenvalues: its diagonal d and its
// off-diagonal e (e[i] joins i and i+1).
func tridiagonalize(a []float64, n int) (d, e []float64) {
	d = make([]float64, n)
	e = make([]float64, max(0, n-1))
	v := make([]float64, n)
	p := make([]float64, n)
	for k := 0; k+2 < n; k++ {
		// The reflection that zeroes a[k+2:, k].
		var norm float64
		for i := k + 1; i < n; i++ {
			norm += a[i*n+k] * a[i*n+k]
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			continue
		}
		alpha := -norm
		if a[(k+1)*n+k] < 0 {
			alpha = norm
		}
		var vn float64
		for i := k + 1; i < n; i++ {
			v[i] = a[i*n+k]
		}
		v[k+1] -= alpha
		for i := k + 1; i < n; i++ {
			vn += v[i] * v[i]
		}
		if vn == 0 {
			continue
		}
		vn = math.Sqrt(vn)
		for i := k + 1; i < n; i++ {
			v[i] /= vn
		}
		// B ← B − 2(v qᵀ + q vᵀ) with p = Bv, K = vᵀp, q = p − Kv.
		var kk float64
		for i := k + 1; i < n; i++ {
			var s float64
			for j := k + 1; j < n; j++ {
				s += a[i*n+j] * v[j]
			}
			p[i] = s
			kk += v[i] * s
		}
		for i := k + 1; i < n; i++ {
			p[i] -= kk * v[i]
		}
		for i := k + 1; i < n; i++ {
			for j := k + 1; j < n; j++ {
				a[i*n+j] -= 2 * (v[i]*p[j] + p[i]*v[j])
			}
		}
		a[(k+1)*n+k], a[k*n+k+1] = alpha, alpha
		for i := k + 2; i < n; i++ {
			a[i*n+k], a[k*n+i] = 0, 0
		}
	}
	for i := range n {
		d[i] = a[i*n+i]
		if i+1 < n {
			e[i] = a[(i+1)*n+i]
		}
	}
	return d, e
}
