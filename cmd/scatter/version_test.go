package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionLine: the module version, the revision cut to 12 digits, the
// time and "modified" when the build info has them, and always the Go
// version and platform.
func TestVersionLine(t *testing.T) {
	goPart := " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "scatter unknown" + goPart},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "scatter (devel)" + goPart},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-28T18:58:00Z"},
			{Key: "vcs.modified", Value: "false"}}},
			"scatter v0.1.0 (0123456789ab, 2026-11-28T18:58:00Z)" + goPart},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20261128185800-0123456789ab+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}},
			"scatter v0.1.1-0.20261128185800-0123456789ab+dirty (abc, modified)" + goPart},
	}
	for _, tt := range tests {
		if got := versionLine(tt.info); got != tt.want {
			t.Errorf("versionLine = %q, want %q", got, tt.want)
		}
	}
}

// TestVersionCommand: version and --version print the line and exit 0;
// an argument is a usage error.
func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != exitOK || !strings.HasPrefix(stdout.String(), "scatter ") || !strings.Contains(stdout.String(), runtime.Version()) || stderr.Len() > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version", "extra"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "version takes no arguments") {
		t.Errorf("version extra: exit %d, stderr %q", code, stderr.String())
	}
}
