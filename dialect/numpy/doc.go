// Package numpy is the NumPy dialect: numpy.add.reduceat,
// numpy.multiply.reduceat, numpy.maximum.reduceat and
// numpy.minimum.reduceat as NumPy defines them.
//
// # Operators
//
//   - numpy.add.reduceat, numpy.multiply.reduceat, numpy.maximum.reduceat, numpy.minimum.reduceat:
//     [AddReduceat], [MultiplyReduceat], [MaximumReduceat], [MinimumReduceat], reduce the runs of array
//     along axis that start at indices.
//
// [Ops] describes the same operators as tables for callers that run them
// by name.
package numpy
