// Package onnxpb reads and writes ONNX protobuf files: single tensors
// (TensorProto, as in the node tests' input_K.pb and output_K.pb files) and
// models (ModelProto, as in model.onnx), converting them to and from
// tensor.Tensor and the plain Go types of this package.
//
// Only the parts of ONNX that this module's operators need are modelled:
// dense tensors of the element types of package tensor, and models whose
// graphs hold nodes with scalar, list and tensor attributes. Everything the
// decoders cannot represent faithfully (external data, segments, sparse
// tensors, graph-valued attributes, unknown element types) is reported as
// an error that matches ErrFormat rather than being dropped silently.
//
// The decoders never panic, whatever bytes they are given, and check a
// tensor against the size limit of tensor.SetMaxBytes (a string tensor
// with its contents, and a tensor's name too) and against its dims before
// they allocate it. ReadTensorFile holds the tensor and a 64 KiB buffer,
// not the file's bytes as well: it reads a TensorProto in two passes over
// the file, the first skipping the elements, the second reading them
// straight into the tensor.
package onnxpb
