package engine

// floatRowsGo is the specification of floatRows, which amd64 has in
// assembly (rowsFloat32), and what every other build runs (purego.go):
// for float32 Add, maxUpdate, minUpdate, maxLast and minLast,
// reduceBlocks' loop, each pair
// in order; it reports false, having done nothing, for another
// reduction. It builds everywhere, so that a test compares it with the
// assembly on amd64.
func floatRowsGo(dst, src []float32, ps []pair, block int, red Reduction) bool {
	if !rowsReduction(red) {
		return false
	}
	blockLoop(red, dst, src, ps, block)
	return true
}

// rowsReduction reports whether the loops over rows of float32 compute
// red: Add, and the maxima and minima of MinMaxStdUpdate and
// MinMaxLastNaN.
func rowsReduction(red Reduction) bool {
	return red == Add || red == maxUpdate || red == minUpdate || red == maxLast || red == minLast
}

// floatOffsetRowsGo is the specification of floatOffsetRows, which amd64
// has in assembly (offsRowsFloat32), and what every other build runs
// (purego.go): for the reductions floatRowsGo takes, block t of src into
// the block of dst at offs[t], none at -1, in order; false, having done
// nothing, for another reduction.
func floatOffsetRowsGo(dst, src []float32, offs []int32, block int, red Reduction) bool {
	if !rowsReduction(red) {
		return false
	}
	for t, o := range offs {
		if o >= 0 {
			reduceSlice(red, dst[o:int(o)+block], src[t*block:(t+1)*block])
		}
	}
	return true
}

// sumRunGo32 is the specification of sumRun, which amd64 has in assembly
// (sumRunFloat32), and what every other build runs (purego.go): it sums
// the rows of a run of rows*inner elements of src into out, element by
// element in row order by add, from +0 if zero or else from the first
// row, and divides each sum by rows by quo if mean.
func sumRunGo32(out, src []float32, rows, inner int, zero, mean bool) bool {
	if rows <= 0 || inner <= 0 {
		return true
	}
	out = out[:inner]
	first := 0
	if zero {
		clear(out)
	} else {
		copy(out, src[:inner])
		first = 1
	}
	for r := first; r < rows; r++ {
		for k, x := range src[r*inner:][:inner] {
			out[k] = add(out[k], x)
		}
	}
	if mean {
		n := float32(rows)
		for k, v := range out {
			out[k] = quo(v, n)
		}
	}
	return true
}
