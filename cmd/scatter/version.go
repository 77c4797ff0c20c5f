package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

var versionCommand = &command{
	name:  "version",
	short: "print the module version and VCS revision the binary was built from",
	about: "Prints the module version the binary was built from, its VCS revision and time (with\n" +
		"\"modified\" if the work tree had changes), and the Go version and platform. scatter --version\n" +
		"prints the same.\n",
	define: noFlags(versionCmd),
}

func versionCmd(args []string, stdout, _ io.Writer) error {
	if len(args) > 0 {
		return usagef("version takes no arguments, got %s", strings.Join(args, " "))
	}
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintln(stdout, versionLine(info))
	return err
}

// versionLine describes the build info: "scatter v0.1.0 (3f2a9c1d0e4b,
// 2026-11-28T18:58:00Z, modified) go1.26.8 linux/amd64". A module built
// from a checkout by Go 1.24 or later gets a pseudo-version from its VCS
// state, one built by go install NAME@VERSION that version; without build
// info (a binary built without module support) the version is "unknown".
func versionLine(info *debug.BuildInfo) string {
	version := "unknown"
	var vcs []string
	if info != nil {
		version = info.Main.Version
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			vcs = append(vcs, rev[:min(12, len(rev))])
		}
		if t := settings["vcs.time"]; t != "" {
			vcs = append(vcs, t)
		}
		if settings["vcs.modified"] == "true" {
			vcs = append(vcs, "modified")
		}
	}
	line := "scatter " + version
	if len(vcs) > 0 {
		line += " (" + strings.Join(vcs, ", ") + ")"
	}
	return line + " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}
