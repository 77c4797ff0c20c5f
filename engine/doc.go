// Package engine holds the dialect-neutral scatter and gather kernels:
// StableHLO's general gather and scatter (GatherGeneral, ScatterGeneral,
// executing GatherDims and ScatterDims), and the seven forms of them that
// frameworks name: ScatterND, ScatterElements, GatherND, GatherElements
// and Gather, which have kernels of their own, and DynamicSlice and
// DynamicUpdateSlice.
//
// Every kernel writes into a destination tensor that the caller supplies
// (named dst and passed first), so repeated calls can reuse memory. A
// scatter's dst may be its data tensor itself, for an in-place update.
//
// The knobs are exactly what the frameworks disagree on (the reduction,
// whether the destination's existing value takes part, what a negative or
// out-of-range index means), so that a dialect is a table of choices over
// these kernels. Whatever the knobs, the kernels promise:
//
//   - Every scatter in place (dst is data) validates every index before
//     it writes anything, so an in-place update never half-happens. A
//     gather, and a scatter into another dst, may validate as it goes:
//     when it reports a bad index (the first in index order), dst may
//     have been partly written.
//   - Work runs in parallel, split by destination, and the results do not
//     depend on the number of threads.
//   - Duplicate indices are applied in row-major index order: with
//     reduction None the last update wins, and every other reduction gives
//     exactly the result of accumulating the updates one at a time in that
//     order.
//   - Data is moved by element size, so moving needs no per-type code;
//     only the reductions' arithmetic is typed.
//
// # Conventions
//
// Arguments: dst comes first, then the tensors read (data or operand,
// indices, updates), then the axis or dimension numbers, then the
// options. A kernel takes tensors by value and reads their elements in
// place; it never keeps them after it returns.
//
// Index order: indices are read in row-major order, and duplicates apply
// in that order whatever the number of workers, so every result is
// deterministic, bit for bit. That holds too where a way of running a
// call is chosen by how fast it has been of late (the halves or the one
// loop: wayTimes in scatter_halves.go): every way applies the updates in
// the same order.
//
// Validation: indices are read as int64 (an int64 tensor's own elements,
// other integer types widened once into the scratch; a uint64 above
// MaxInt64 saturates, and errors still quote it as it was). Each value
// is checked against its dimension under IndexRules: a negative one
// counts from the end, is out of range, is dropped whatever happens to
// one past the end (NegativeSkip, the scatter forms only), or is refused
// before anything else where the values past the end are skipped
// (NegativeRefused); one out of range is an error, skipped or (by the
// general kernels only) clamped or wrapped. A scatter onto no data starts
// from zeros, or from ScatterOptions.Fill. An error is an
// *IndexError naming the first bad index in row-major order (the last
// bad tuple under ReportLast); every error wraps one of ErrIndex,
// ErrShape, ErrType and ErrArgument.
//
// Into forms: every kernel writes into a dst that the caller supplies, of
// the shape the Shape functions (GatherNDShape, GatherShape,
// GatherElementsShape, GatherDims.Shape) give or of data's shape for a
// scatter. A call that succeeds writes every element of dst, a skipped
// gather index as zero or the fill value, so dst may start as any
// memory: the dialects' allocating forms hand in unzeroed outputs. A
// call that fails leaves an in-place dst as it was, and may leave
// another dst partly written (see above).
//
// Scratch: a call takes its working memory (shapes, strides, limits,
// widened indices, offsets, counts, per-worker buffers, the typed movers
// and reducers, its jobs) from a pool, and gives it back when it
// returns: a steady state of calls allocates nothing. A scratch keeps
// the plan of its latest ScatterND call (what the types, shapes and
// index rules determine), which a call of the same types, shapes and
// rules takes rather than check and derive them again; its indices,
// options and memory are checked on every call.
//
// # Files
//
// Each operation has a file: scatter_nd.go (and its plans,
// scatter_nd_plan.go; its single elements into another dst past the
// cache, sorted by block of dst, scatter_nd_blocked.go; its rows into
// another dst past the cache, each row written once,
// scatter_nd_once.go), scatter_elements.go (and its
// column blocks along axis 0, scatter_columns.go; its slabs through a
// buffer along the last axis, scatter_slabs.go; its single updates in
// halves, scatter_halves.go; blocks of a few elements at random rows,
// prefetched, scatter_rows_small.go; many of them into another dst in
// the cache on one goroutine, their offsets made alongside by another,
// scatter_rows_pipeline.go), gather_nd.go, gather_elements.go, gather.go
// (Gather along an axis, and the gathers' checks), slice.go
// (DynamicSlice, DynamicUpdateSlice), segment_runs.go (ReduceRuns: runs
// of consecutive slices reduced in order, NumPy's reduceat and
// TensorFlow's sorted segment reductions), general_gather.go and
// general_scatter.go (the general core, walking the layout of
// general.go). dispatch.go chooses between a form's kernel and the
// general core; forms.go gives each form's dimension numbers, dims.go
// checks them. scatter_run.go fills dst and applies a scatter's updates
// by worker; tuples.go and walk.go turn index tuples and rows into
// offsets; index.go validates indices; mover.go moves elements by size,
// reducer.go, arith.go and knobs.go reduce them by type (scale.go
// multiplies updates by ScatterOptions.Scale first), types.go holds
// the per-type table; view.go finds a tensor's elements; scratch.go and
// parallel.go hold the working memory and the workers (and the tasks
// that workers claim from each other); cpu.go describes
// the processor and strategy.go chooses from it how rows are copied
// (Strategy: how far ahead to ask, whether to write around the cache,
// whether to gather with AVX-512); errors.go and options.go the public
// types; nan.go the one rule by which the
// arithmetic makes a NaN, so that results are the same bits on every
// platform.
//
// The few instructions Go cannot ask for are in assembly, each with a Go
// twin where it is missing: add_amd64.s (float32 sums by index, eight
// indices checked at a time with AVX2, addFloats, or at positions already
// checked, addFloatsAt, and the halves' sort, eight updates at a time
// with AVX-512, and sums, sortEntries and addEntries; add_other.go, sortHalves), gather_amd64.s (AVX-512 gathers of eight elements,
// gatherRows; single elements moved by pairs with the table's element
// asked for ahead, movePairsAhead; and GatherND's single elements by
// pairs of index values, gatherPairElems; gather_other.go), index_amd64.s (the OR of an index check,
// orWords, with AVX2 or SSE2, and the OR of a copy, copyOrWords;
// index_other.go), place_amd64.s (rows of
// whole 16-byte words copied to offsets, with SSE or AVX moves,
// placeRows; place_other.go), tuples_amd64.s (the offsets of
// triples, triples; offsets3 its twin), rows_amd64.s (float32
// blocks of rows summed, or maxed and mined as std::max(update, value)
// is, eight elements an AVX instruction, rowsFloat32; rows_other.go) and
// stream_amd64.s (prefetches and non-temporal copies; stream_other.go)
// and cpuid_amd64.s (CPUID, which cpu_other.go answers with an unknown
// processor).
package engine
