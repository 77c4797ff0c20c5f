// Package numpy is the NumPy dialect: numpy.take, numpy.put,
// numpy.take_along_axis, numpy.put_along_axis, the unbuffered in-place
// ufunc.at and the ufunc.reduceat of add, subtract (at only), multiply,
// maximum and minimum, as NumPy 1.24 to 2.x computes them.
//
// # Operators
//
// Each has an Into form that writes into a dst you supply (TakeInto); the
// operators that NumPy runs in place (put, put_along_axis, ufunc.at) take
// the array to update and change it, and their Into form writes the
// updated copy into dst, which may be the array itself:
//
//   - numpy.take: [Take], elements of a at indices along an axis, or of the flattened a (Flat), in a mode (ModeRaise, ModeWrap, ModeClip; [ParseMode]).
//   - numpy.put: [Put], write v (repeated) at indices of the flattened a, in a mode.
//   - numpy.take_along_axis: [TakeAlongAxis], elements of arr at positions along an axis that indices gives per element.
//   - numpy.put_along_axis: [PutAlongAxis], write values at positions along an axis.
//   - numpy.add.at, numpy.subtract.at, numpy.multiply.at, numpy.maximum.at, numpy.minimum.at: [AddAt], [SubtractAt], [MultiplyAt], [MaximumAt], [MinimumAt], combine b into a at Indices, duplicates accumulating.
//   - numpy.add.reduceat, numpy.multiply.reduceat, numpy.maximum.reduceat, numpy.minimum.reduceat: [AddReduceat], [MultiplyReduceat], [MaximumReduceat], [MinimumReduceat], reduce the runs of array along axis that start at indices.
//
// [Ops] describes the same operators as tables for callers that run them
// by name. There, axis left out is None (Flat) for take, -1 for
// take_along_axis (NumPy 2.3's default) and required for
// put_along_axis; None for the along-axis pair is the Go API's only.
//
// # Rules
//
// The rules, with the NumPy sources they come from
// (numpy/_core/src/multiarray/item_selection.c for take and put,
// numpy/lib/_shape_base_impl.py for the along-axis pair,
// numpy/_core/src/umath/ufunc_object.c and mapping.c for ufunc.at):
//
//   - take and put take a mode: ModeRaise (the default) counts a negative
//     index from the end and refuses one outside [-size, size-1];
//     ModeWrap takes every index modulo the size, as Python's % does;
//     ModeClip sends an index below 0 to 0 and one past the end to the
//     last position: it does not count negative indices from the end.
//     Taking from an axis of size 0, or putting into an empty array, is an
//     index error in every mode (a take whose result is empty reads
//     nothing, and succeeds in modes wrap and clip).
//   - put writes v[i % len(v)] at the i-th index, in index order, so the
//     last of duplicate indices wins; an empty v writes nothing. NumPy's
//     put in raise mode writes the values before a bad index and then
//     fails; this dialect checks every index first, and a failed put
//     leaves the array as it was.
//   - take_along_axis, put_along_axis and ufunc.at index as NumPy's
//     integer-array indexing does: a negative index counts from the end,
//     one outside [-size, size-1] is an error, raised before anything is
//     written. The along-axis pair broadcast indices against arr in every
//     dimension but axis; put_along_axis and ufunc.at broadcast values and
//     b to the indexed shape. Duplicates in put_along_axis keep the last
//     write in index order (NumPy does not promise an order; this is what
//     its loop does).
//   - ufunc.at is unbuffered: duplicate indices each apply, in row-major
//     index order, every step rounded to a's element type (float16 too);
//     integers wrap. Its indices are one integer array, which indexes a's
//     first axis, or a tuple of integer arrays, broadcast together, which
//     index the first dimensions (Indices); NumPy's other indices
//     (slices, Ellipsis, bool masks) have no counterpart here. maximum
//     and minimum follow np.maximum and np.minimum: a NaN on either side
//     gives NaN (the one in place if both are), and of +0 and -0 the
//     value in place stays.
//
// Element types: every numeric type, bool and complex (bfloat16 as
// ml_dtypes adds it to NumPy); no strings. v, values and b must have the
// element type of the array they are written into: NumPy's casting of
// other types is not reproduced. subtract.at refuses bool, as NumPy's
// subtract does; maximum.at and minimum.at refuse complex (NumPy orders
// complex numbers lexicographically, which this dialect does not
// implement). Indices are of any integer type, as NumPy casts them to
// intp; a bool array is not an index array here (NumPy reads it as 0 and
// 1 in take and put, as a mask in ufunc.at) and is refused.
//
// Where NumPy's versions differ: 1.24 refuses uint64 indices in take and
// put (a 'safe' cast to intp) where 2.x casts 'same_kind', and this
// dialect takes them; 1.24 does not check a put into an empty array (it
// loops or corrupts memory), 2.x refuses it, as this dialect does; 2.3
// made -1 take_along_axis' default axis; 2.x's NEP 50 rules for Python
// scalars in ufunc.at do not arise, b having a's element type.
//
// Every error is a *dialect.OpError naming the operator ("numpy.take")
// and wrapping one of engine.ErrIndex (with an *engine.IndexError),
// engine.ErrShape, engine.ErrType, engine.ErrArgument, dialect.ErrAttribute
// or dialect.ErrInput.
package numpy
