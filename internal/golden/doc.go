// Package golden holds no code: its test runs a fixed battery of calls
// of every operator of every dialect (through the registry, in every
// element type, with every reduction, at every version) on the corner
// values where platforms could differ (NaN payloads, signed zeros,
// subnormals, float16, bfloat16 and complex corners, duplicate indices),
// and checks the SHA-256 of their results, errors included by their
// messages, against the one committed in testdata. CI runs it on amd64,
// amd64 with -tags purego, arm64, 386 and s390x: the digest is the same
// on each, so results are the same bits on each.
package golden
