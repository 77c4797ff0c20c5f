package engine

// floatRowsGo is the specification of floatRows, which amd64 has in
// assembly (rowsFloat32), and what every other build runs (purego.go):
// for float32 Add, maxUpdate, minUpdate, maxLast and minLast,
// reduceBlocks' loop, each pair
// in order; it reports false, having done nothing, for another
// reduction. It builds everywhere, so that a test compares it with the
// assembly on amd64.
func floatRowsGo(dst, src []float32, ps []pair, block int, red Reduction) bool {
	if red != Add && red != maxUpdate && red != minUpdate && red != maxLast && red != minLast {
		return false
	}
	blockLoop(red, dst, src, ps, block)
	return true
}
