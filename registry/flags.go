package registry

import "github.com/scatter-dev/scatter/engine"

// FlagReduction is a reduction an operator chooses with a boolean
// attribute rather than a reduction attribute: Off when the attribute is
// false, On when it is true. The operator's Behavior lists no
// reductions, since none is fixed.
type FlagReduction struct {
	Attr    string
	Off, On engine.Reduction
}

// flagReductions are the operators that choose their reduction by a
// flag, by name.
var flagReductions = map[string]FlagReduction{
	"torch.put":        {Attr: "accumulate", Off: engine.None, On: engine.Add},
	"torch.index_put":  {Attr: "accumulate", Off: engine.None, On: engine.Add},
	"tf.math.bincount": {Attr: "binary_output", Off: engine.Add, On: engine.None},
}

// FlagReductionOf returns the flag by which the named operator chooses
// its reduction, and whether it has one.
func FlagReductionOf(name string) (FlagReduction, bool) {
	f, ok := flagReductions[name]
	return f, ok
}
