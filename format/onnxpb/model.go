package onnxpb

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/scatter-dev/scatter/format/onnxpb/internal/pb"
	"github.com/scatter-dev/scatter/tensor"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Model is an ONNX model (ModelProto): its metadata, the operator sets it
// imports and its main graph. Model-local functions, metadata properties
// and training information are not kept.
type Model struct {
	// IRVersion is the ONNX IR version the model is written in. EncodeModel
	// writes it as it is, so set it (e.g. to 8) for a model other tools
	// are to read.
	IRVersion int64
	// ProducerName and ProducerVersion name the tool that wrote the model.
	ProducerName    string
	ProducerVersion string
	// Domain is the model's own namespace (reverse-DNS style), if any.
	Domain string
	// ModelVersion is the model's own version number.
	ModelVersion int64
	// DocString is free-form documentation.
	DocString string
	// Opsets maps each imported operator set's domain to its version. The
	// default domain is "", whether the file spells it "" or "ai.onnx".
	Opsets map[string]int64
	Graph  Graph
}

// Graph is an ONNX graph (GraphProto). Sparse initializers are not
// supported.
type Graph struct {
	// Name and DocString are the graph's name and documentation.
	Name      string
	DocString string
	// Nodes lists the graph's nodes in the order the file lists them,
	// which ONNX requires to be a topological order.
	Nodes []Node
	// Inputs and Outputs describe the graph's inputs and outputs, in order.
	Inputs  []ValueInfo
	Outputs []ValueInfo
	// ValueInfo describes intermediate values, where the file does.
	ValueInfo []ValueInfo
	// Initializers holds the graph's constant tensors in file order. Their
	// names are distinct.
	Initializers []Initializer
}

// Initializer is a named constant tensor of a graph.
type Initializer struct {
	Name   string        // the name nodes use to refer to it
	Tensor tensor.Tensor // its value
}

// Initializer returns the initializer named name and whether there is one.
func (g *Graph) Initializer(name string) (tensor.Tensor, bool) {
	for _, in := range g.Initializers {
		if in.Name == name {
			return in.Tensor, true
		}
	}
	return tensor.Tensor{}, false
}

// ValueInfo is the name, element type and shape of a graph input, output or
// intermediate value (ValueInfoProto).
type ValueInfo struct {
	// Name is the value's name; DocString documents it.
	Name      string
	DocString string
	// DType is the element type. It is Undefined when the file gives no
	// type or a type that is not a dense tensor type (sequence, map,
	// optional, sparse tensor). It may be a value that tensor.DType.Valid
	// rejects (one of ONNX's newer element types, such as the float8 ones).
	DType tensor.DType
	// HasShape reports whether the type carries a shape. Without one even
	// the rank is unknown; a scalar has HasShape true and no Shape.
	HasShape bool
	// Shape holds one Dim per dimension when HasShape is true.
	Shape []Dim
}

// StaticShape returns the shape if it is known and every dimension is a
// number.
func (v ValueInfo) StaticShape() (tensor.Shape, bool) {
	if !v.HasShape {
		return nil, false
	}
	s := make(tensor.Shape, len(v.Shape))
	for i, d := range v.Shape {
		if !d.Known() || d.Value > math.MaxInt {
			return nil, false
		}
		s[i] = int(d.Value)
	}
	return s, true
}

// Dim is one dimension of a ValueInfo's shape: a number, a symbolic name,
// or neither when nothing is known about it.
type Dim struct {
	// Value is the size, or -1 when the dimension is not a number.
	Value int64
	// Param is the symbolic name ("batch", "N"), or "" if there is none.
	Param string
}

// Known reports whether the dimension's size is a number.
func (d Dim) Known() bool { return d.Value >= 0 }

// Node is one operator invocation (NodeProto).
type Node struct {
	// Name is the node's name, which may be empty.
	Name string
	// OpType is the operator's name, e.g. "ScatterND".
	OpType string
	// Domain is the operator's domain; the default domain is "", whether
	// the file spells it "" or "ai.onnx".
	Domain string
	// Inputs and Outputs name the values the node reads and writes; an
	// omitted optional input or output is "".
	Inputs  []string
	Outputs []string
	// Attributes lists the node's attributes in file order; their names
	// are distinct.
	Attributes []Attribute
	// DocString is free-form documentation.
	DocString string
}

// Attr returns the node's attribute named name, or nil if it has none.
func (n *Node) Attr(name string) *Attribute {
	for i := range n.Attributes {
		if n.Attributes[i].Name == name {
			return &n.Attributes[i]
		}
	}
	return nil
}

// AttributeType is the type of an attribute's value; the values are those
// of ONNX's AttributeProto.AttributeType.
type AttributeType int32

// The attribute types. Graph-valued attributes (ONNX's GRAPH and GRAPHS,
// used by control-flow operators such as If and Loop), sparse tensors and
// type protos are not supported: DecodeModel rejects a model that has one.
const (
	AttrUndefined AttributeType = 0
	AttrFloat     AttributeType = 1
	AttrInt       AttributeType = 2
	AttrString    AttributeType = 3
	AttrTensor    AttributeType = 4
	AttrFloats    AttributeType = 6
	AttrInts      AttributeType = 7
	AttrStrings   AttributeType = 8
	AttrTensors   AttributeType = 9
)

// String returns the type's ONNX name ("INT", "FLOATS", ...), or
// "AttributeType(N)" for a value ONNX does not define.
func (t AttributeType) String() string {
	if name, ok := pb.AttributeProto_AttributeType_name[int32(t)]; ok {
		return name
	}
	return fmt.Sprintf("AttributeType(%d)", int32(t))
}

// Attribute is a named attribute of a node (AttributeProto). Only the field
// that Type selects is meaningful.
type Attribute struct {
	// Name is the attribute's name, e.g. "reduction".
	Name string
	// Type selects the field that holds the value. It is AttrUndefined
	// only for a bare reference to a function attribute (RefAttrName).
	Type AttributeType
	// Float, Int, String and Tensor hold a single value.
	Float float32
	Int   int64
	// String holds the bytes of a STRING attribute, which need not be
	// UTF-8.
	String string
	// Tensor holds a TENSOR attribute's value; the tensor's own name, if
	// any, is not kept.
	Tensor tensor.Tensor
	// Floats, Ints, Strings and Tensors hold a list of values.
	Floats  []float32
	Ints    []int64
	Strings []string
	Tensors []tensor.Tensor
	// RefAttrName, inside a function body, names the function attribute
	// this one refers to.
	RefAttrName string
	// DocString is free-form documentation.
	DocString string
}

// DecodeModel decodes a serialized ONNX ModelProto (the contents of a
// .onnx file). Every error matches ErrFormat. A model with a graph-valued,
// sparse-tensor or type-proto attribute, a sparse initializer, or an
// initializer or attribute tensor that DecodeTensor would reject is an
// error.
func DecodeModel(b []byte) (*Model, error) {
	var p pb.ModelProto
	if err := proto.Unmarshal(b, &p); err != nil {
		return nil, wrapf(err, "model: malformed protobuf")
	}
	if v, ok := wideInt32Data(b); ok {
		return nil, errorf("model: a tensor's int32_data value %d is out of range for int32", v)
	}
	m := &Model{
		IRVersion:       p.GetIrVersion(),
		ProducerName:    p.GetProducerName(),
		ProducerVersion: p.GetProducerVersion(),
		Domain:          p.GetDomain(),
		ModelVersion:    p.GetModelVersion(),
		DocString:       p.GetDocString(),
		Opsets:          make(map[string]int64, len(p.GetOpsetImport())),
	}
	for _, o := range p.GetOpsetImport() {
		domain := normalizeDomain(o.GetDomain())
		if _, dup := m.Opsets[domain]; dup {
			return nil, errorf("model imports operator set domain %q twice", domain)
		}
		m.Opsets[domain] = o.GetVersion()
	}
	if p.Graph != nil {
		g, err := decodeGraph(p.Graph)
		if err != nil {
			return nil, err
		}
		m.Graph = g
	}
	return m, nil
}

// normalizeDomain maps ONNX's two spellings of the default domain to "".
func normalizeDomain(d string) string {
	if d == "ai.onnx" {
		return ""
	}
	return d
}

func decodeGraph(p *pb.GraphProto) (Graph, error) {
	g := Graph{Name: p.GetName(), DocString: p.GetDocString()}
	if hasUnknownField(p, fieldGraphSparseInit) {
		return Graph{}, errorf("graph %q has sparse initializers, which are not supported", g.Name)
	}
	var err error
	if g.Inputs, err = decodeValueInfos(p.GetInput(), g.Name, "input"); err != nil {
		return Graph{}, err
	}
	if g.Outputs, err = decodeValueInfos(p.GetOutput(), g.Name, "output"); err != nil {
		return Graph{}, err
	}
	if g.ValueInfo, err = decodeValueInfos(p.GetValueInfo(), g.Name, "value_info"); err != nil {
		return Graph{}, err
	}
	seen := make(map[string]bool, len(p.GetInitializer()))
	for _, tp := range p.GetInitializer() {
		name := tp.GetName()
		if seen[name] {
			return Graph{}, errorf("graph %q has two initializers named %q", g.Name, name)
		}
		seen[name] = true
		t, err := decodeTensorProto(tp, fmt.Sprintf("graph %q: initializer %q", g.Name, name))
		if err != nil {
			return Graph{}, err
		}
		g.Initializers = append(g.Initializers, Initializer{Name: name, Tensor: t})
	}
	for i, np := range p.GetNode() {
		n, err := decodeNode(np, fmt.Sprintf("graph %q: node %d (%q, %s)", g.Name, i, np.GetName(), np.GetOpType()))
		if err != nil {
			return Graph{}, err
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g, nil
}

func decodeValueInfos(ps []*pb.ValueInfoProto, graph, kind string) ([]ValueInfo, error) {
	var out []ValueInfo
	for _, p := range ps {
		v := ValueInfo{Name: p.GetName(), DocString: p.GetDocString()}
		if tt := p.GetType().GetTensorType(); tt != nil {
			v.DType = tensor.DType(tt.GetElemType())
			if sp := tt.GetShape(); sp != nil {
				v.HasShape = true
				if len(sp.GetDim()) > MaxRank {
					return nil, errorf("graph %q: %s %q has %d dimensions, more than the %d supported",
						graph, kind, v.Name, len(sp.GetDim()), MaxRank)
				}
				v.Shape = make([]Dim, len(sp.GetDim()))
				for i, d := range sp.GetDim() {
					switch x := d.GetValue().(type) {
					case *pb.TensorShapeProto_Dimension_DimValue:
						if x.DimValue < 0 {
							return nil, errorf("graph %q: %s %q: dimension %d is negative (%d)",
								graph, kind, v.Name, i, x.DimValue)
						}
						v.Shape[i] = Dim{Value: x.DimValue}
					case *pb.TensorShapeProto_Dimension_DimParam:
						v.Shape[i] = Dim{Value: -1, Param: x.DimParam}
					default:
						v.Shape[i] = Dim{Value: -1}
					}
				}
			}
		}
		out = append(out, v)
	}
	return out, nil
}

func decodeNode(p *pb.NodeProto, ctx string) (Node, error) {
	n := Node{
		Name:      p.GetName(),
		OpType:    p.GetOpType(),
		Domain:    normalizeDomain(p.GetDomain()),
		Inputs:    p.GetInput(),
		Outputs:   p.GetOutput(),
		DocString: p.GetDocString(),
	}
	seen := make(map[string]bool, len(p.GetAttribute()))
	for _, ap := range p.GetAttribute() {
		actx := fmt.Sprintf("%s: attribute %q", ctx, ap.GetName())
		if seen[ap.GetName()] {
			return Node{}, errorf("%s appears twice", actx)
		}
		seen[ap.GetName()] = true
		a, err := decodeAttribute(ap, actx)
		if err != nil {
			return Node{}, err
		}
		n.Attributes = append(n.Attributes, a)
	}
	return n, nil
}

// inferAttributeType returns the type of an attribute that does not state
// it, from the one value field it sets.
func inferAttributeType(p *pb.AttributeProto, ctx string) (AttributeType, error) {
	var found []AttributeType
	add := func(set bool, t AttributeType) {
		if set {
			found = append(found, t)
		}
	}
	add(p.F != nil, AttrFloat)
	add(p.I != nil, AttrInt)
	add(p.S != nil, AttrString)
	add(p.T != nil, AttrTensor)
	add(p.G != nil, AttributeType(pb.AttributeProto_GRAPH))
	add(len(p.Floats) > 0, AttrFloats)
	add(len(p.Ints) > 0, AttrInts)
	add(len(p.Strings) > 0, AttrStrings)
	add(len(p.Tensors) > 0, AttrTensors)
	add(len(p.Graphs) > 0, AttributeType(pb.AttributeProto_GRAPHS))
	switch len(found) {
	case 0:
		if p.GetRefAttrName() != "" {
			return AttrUndefined, nil
		}
		return 0, errorf("%s has no type and no value", ctx)
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, t := range found {
		names[i] = t.String()
	}
	return 0, errorf("%s has no type and values of several types: %s", ctx, strings.Join(names, ", "))
}

func decodeAttribute(p *pb.AttributeProto, ctx string) (Attribute, error) {
	if hasUnknownField(p, fieldAttributeType) {
		return Attribute{}, errorf("%s has an unknown type", ctx)
	}
	a := Attribute{
		Name:        p.GetName(),
		Type:        AttributeType(p.GetType()),
		RefAttrName: p.GetRefAttrName(),
		DocString:   p.GetDocString(),
	}
	if a.Type == AttrUndefined {
		t, err := inferAttributeType(p, ctx)
		if err != nil {
			return Attribute{}, err
		}
		a.Type = t
	}
	switch a.Type {
	case AttrUndefined:
		// Only a reference to a function attribute, which has no value.
	case AttrFloat:
		a.Float = p.GetF()
	case AttrInt:
		a.Int = p.GetI()
	case AttrString:
		a.String = string(p.GetS())
	case AttrTensor:
		if p.T == nil {
			return Attribute{}, errorf("%s is of type TENSOR but has no tensor", ctx)
		}
		t, err := decodeTensorProto(p.T, fmt.Sprintf("%s: tensor %q", ctx, p.T.GetName()))
		if err != nil {
			return Attribute{}, err
		}
		a.Tensor = t
	case AttrFloats:
		a.Floats = p.GetFloats()
	case AttrInts:
		a.Ints = p.GetInts()
	case AttrStrings:
		a.Strings = make([]string, len(p.GetStrings()))
		for i, s := range p.GetStrings() {
			a.Strings[i] = string(s)
		}
	case AttrTensors:
		a.Tensors = make([]tensor.Tensor, len(p.GetTensors()))
		for i, tp := range p.GetTensors() {
			t, err := decodeTensorProto(tp, fmt.Sprintf("%s: tensor %d (%q)", ctx, i, tp.GetName()))
			if err != nil {
				return Attribute{}, err
			}
			a.Tensors[i] = t
		}
	default:
		return Attribute{}, errorf("%s is of type %v, which is not supported", ctx, a.Type)
	}
	return a, nil
}

// EncodeModel serializes m as an ONNX ModelProto. It writes the fields as
// they are (apart from the default domain, written as ""), so it can build
// models that other tools reject; it fails only on what ONNX cannot express
// or this package does not support, and every such error matches
// ErrFormat.
func EncodeModel(m *Model) ([]byte, error) {
	if m == nil {
		return nil, errorf("model: cannot encode a nil model")
	}
	p := &pb.ModelProto{
		IrVersion:       optInt64(m.IRVersion),
		ProducerName:    optString(m.ProducerName),
		ProducerVersion: optString(m.ProducerVersion),
		Domain:          optString(m.Domain),
		ModelVersion:    optInt64(m.ModelVersion),
		DocString:       optString(m.DocString),
	}
	domains := make([]string, 0, len(m.Opsets))
	seen := make(map[string]bool, len(m.Opsets))
	for d := range m.Opsets {
		nd := normalizeDomain(d)
		if seen[nd] {
			return nil, errorf("model: Opsets has both \"\" and \"ai.onnx\", which are the same domain")
		}
		seen[nd] = true
		domains = append(domains, d)
	}
	sort.Strings(domains)
	for _, d := range domains {
		p.OpsetImport = append(p.OpsetImport, &pb.OperatorSetIdProto{
			Domain:  proto.String(normalizeDomain(d)),
			Version: proto.Int64(m.Opsets[d]),
		})
	}
	g, err := encodeGraph(&m.Graph)
	if err != nil {
		return nil, err
	}
	p.Graph = g
	b, err := proto.Marshal(p)
	if err != nil {
		return nil, wrapf(err, "model: cannot serialize")
	}
	return b, nil
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt64(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

func encodeGraph(g *Graph) (*pb.GraphProto, error) {
	p := &pb.GraphProto{Name: optString(g.Name), DocString: optString(g.DocString)}
	var err error
	if p.Input, err = encodeValueInfos(g.Inputs, g.Name, "input"); err != nil {
		return nil, err
	}
	if p.Output, err = encodeValueInfos(g.Outputs, g.Name, "output"); err != nil {
		return nil, err
	}
	if p.ValueInfo, err = encodeValueInfos(g.ValueInfo, g.Name, "value_info"); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(g.Initializers))
	for _, in := range g.Initializers {
		if seen[in.Name] {
			return nil, errorf("graph %q has two initializers named %q", g.Name, in.Name)
		}
		seen[in.Name] = true
		tp, err := encodeTensorProto(in.Tensor, in.Name, fmt.Sprintf("graph %q: initializer %q", g.Name, in.Name))
		if err != nil {
			return nil, err
		}
		if tp.Name == nil {
			tp.Name = proto.String("")
		}
		p.Initializer = append(p.Initializer, tp)
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		np, err := encodeNode(n, fmt.Sprintf("graph %q: node %d (%q, %s)", g.Name, i, n.Name, n.OpType))
		if err != nil {
			return nil, err
		}
		p.Node = append(p.Node, np)
	}
	return p, nil
}

func encodeValueInfos(vs []ValueInfo, graph, kind string) ([]*pb.ValueInfoProto, error) {
	var out []*pb.ValueInfoProto
	for _, v := range vs {
		p := &pb.ValueInfoProto{Name: proto.String(v.Name), DocString: optString(v.DocString)}
		if v.DType != tensor.Undefined || v.HasShape {
			tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(v.DType))}
			if v.HasShape {
				if len(v.Shape) > MaxRank {
					return nil, errorf("graph %q: %s %q has %d dimensions, more than the %d supported",
						graph, kind, v.Name, len(v.Shape), MaxRank)
				}
				tt.Shape = &pb.TensorShapeProto{Dim: make([]*pb.TensorShapeProto_Dimension, len(v.Shape))}
				for i, d := range v.Shape {
					pd := &pb.TensorShapeProto_Dimension{}
					switch {
					case d.Known() && d.Param != "":
						return nil, errorf("graph %q: %s %q: dimension %d has both a size (%d) and a name (%q)",
							graph, kind, v.Name, i, d.Value, d.Param)
					case d.Known():
						pd.Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: d.Value}
					case d.Param != "":
						pd.Value = &pb.TensorShapeProto_Dimension_DimParam{DimParam: d.Param}
					}
					tt.Shape.Dim[i] = pd
				}
			}
			p.Type = &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
		}
		out = append(out, p)
	}
	return out, nil
}

func encodeNode(n *Node, ctx string) (*pb.NodeProto, error) {
	p := &pb.NodeProto{
		Input:     n.Inputs,
		Output:    n.Outputs,
		Name:      optString(n.Name),
		OpType:    proto.String(n.OpType),
		Domain:    optString(normalizeDomain(n.Domain)),
		DocString: optString(n.DocString),
	}
	seen := make(map[string]bool, len(n.Attributes))
	for i := range n.Attributes {
		a := &n.Attributes[i]
		actx := fmt.Sprintf("%s: attribute %q", ctx, a.Name)
		if seen[a.Name] {
			return nil, errorf("%s appears twice", actx)
		}
		seen[a.Name] = true
		ap, err := encodeAttribute(a, actx)
		if err != nil {
			return nil, err
		}
		p.Attribute = append(p.Attribute, ap)
	}
	return p, nil
}

func encodeAttribute(a *Attribute, ctx string) (*pb.AttributeProto, error) {
	p := &pb.AttributeProto{
		Name:        proto.String(a.Name),
		RefAttrName: optString(a.RefAttrName),
		DocString:   optString(a.DocString),
	}
	if a.Type != AttrUndefined {
		p.Type = pb.AttributeProto_AttributeType(a.Type).Enum()
	}
	switch a.Type {
	case AttrUndefined:
		if a.RefAttrName == "" {
			return nil, errorf("%s has no type", ctx)
		}
	case AttrFloat:
		p.F = proto.Float32(a.Float)
	case AttrInt:
		p.I = proto.Int64(a.Int)
	case AttrString:
		p.S = []byte(a.String)
	case AttrTensor:
		tp, err := encodeTensorProto(a.Tensor, "", ctx+": tensor")
		if err != nil {
			return nil, err
		}
		p.T = tp
	case AttrFloats:
		p.Floats = a.Floats
	case AttrInts:
		p.Ints = a.Ints
	case AttrStrings:
		p.Strings = make([][]byte, len(a.Strings))
		for i, s := range a.Strings {
			p.Strings[i] = []byte(s)
		}
	case AttrTensors:
		for i, t := range a.Tensors {
			tp, err := encodeTensorProto(t, "", fmt.Sprintf("%s: tensor %d", ctx, i))
			if err != nil {
				return nil, err
			}
			p.Tensors = append(p.Tensors, tp)
		}
	default:
		return nil, errorf("%s is of type %v, which is not supported", ctx, a.Type)
	}
	return p, nil
}

// Field numbers on the paths from a ModelProto to its TensorProtos: the
// graph, its initializers and nodes, a node's attributes, an attribute's
// tensor and tensors.
const (
	fieldModelGraph       = 7
	fieldGraphNode        = 1
	fieldGraphInitializer = 5
	fieldNodeAttribute    = 5
	fieldAttributeTensor  = 5
	fieldAttributeTensors = 11
)

// CountNodes returns the number of nodes of the graph of the serialized
// ModelProto b, as far as b reads as protobuf (DecodeModel says what is
// wrong with the rest), without decoding it: a caller can refuse a model
// of too many nodes before it takes the memory of decoding them.
func CountNodes(b []byte) int {
	n := 0
	forFields(b, func(num protowire.Number, _ protowire.Type, graph []byte) {
		if num == fieldModelGraph {
			forFields(graph, func(num protowire.Number, typ protowire.Type, _ []byte) {
				if num == fieldGraphNode && typ == protowire.BytesType {
					n++
				}
			})
		}
	})
	return n
}

// wideInt32Data returns a value of the int32_data of a tensor of the
// serialized ModelProto b (an initializer of its graph, or an attribute's
// tensor) that wideInt32 finds, and whether there is one.
func wideInt32Data(b []byte) (int64, bool) {
	var wide int64
	found := false
	tensor := func(t []byte) {
		if !found {
			wide, found = wideInt32(t)
		}
	}
	forFields(b, func(num protowire.Number, _ protowire.Type, graph []byte) {
		if num != fieldModelGraph {
			return
		}
		forFields(graph, func(num protowire.Number, _ protowire.Type, v []byte) {
			switch num {
			case fieldGraphInitializer:
				tensor(v)
			case fieldGraphNode:
				forFields(v, func(num protowire.Number, _ protowire.Type, attr []byte) {
					if num != fieldNodeAttribute {
						return
					}
					forFields(attr, func(num protowire.Number, _ protowire.Type, t []byte) {
						if num == fieldAttributeTensor || num == fieldAttributeTensors {
							tensor(t)
						}
					})
				})
			}
		})
	})
	return wide, found
}

// wideInt32 returns a value of the int32_data of the serialized
// TensorProto t, packed or not, that is not an int32 sign-extended to 64
// bits, as its varint must be, and whether there is one: protobuf's
// runtimes cut such a value to its low 32 bits (2^32+5 to 5), where
// DecodeTensor refuses it.
func wideInt32(t []byte) (int64, bool) {
	var wide int64
	found := false
	forFields(t, func(num protowire.Number, typ protowire.Type, v []byte) {
		if num != int32Data.number() || found {
			return
		}
		if typ == protowire.VarintType {
			v = v[:max(protowire.ConsumeFieldValue(num, typ, v), 0)]
		}
		for len(v) > 0 {
			x, n := protowire.ConsumeVarint(v)
			if n < 0 {
				return
			}
			if int64(x) != int64(int32(x)) {
				wide, found = int64(x), true
				return
			}
			v = v[n:]
		}
	})
	return wide, found
}

// forFields calls f with the number and wire type of each field of the
// message b that is length-delimited or a varint: with the contents of
// the former, and the bytes from the latter's value on.
func forFields(b []byte, f func(protowire.Number, protowire.Type, []byte)) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		switch typ {
		case protowire.BytesType:
			if v, m := protowire.ConsumeBytes(b); m >= 0 {
				f(num, typ, v)
			}
		case protowire.VarintType:
			f(num, typ, b)
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return
		}
		b = b[m:]
	}
}
