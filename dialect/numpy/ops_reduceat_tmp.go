package numpy

import "github.com/scatter-dev/scatter/dialect"

// Ops returns the dialect's operators, for generic callers such as the
// command line: numpy.add.reduceat, numpy.multiply.reduceat,
// numpy.maximum.reduceat and numpy.minimum.reduceat, each with the single
// version 1.
func Ops() []*dialect.Op { return reduceatOps() }
