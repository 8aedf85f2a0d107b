package main

import (
	"io"
	"testing"

	"github.com/captionqa/captionqa/backend/cli"
)

// TestDesktopConfigSharesServeFlags: the window takes serve's limits and
// listener flags and variables (it once ignored them), without opening a
// window: only the parser runs.
func TestDesktopConfigSharesServeFlags(t *testing.T) {
	for _, tc := range []struct {
		name           string
		args           []string
		env            map[string]string
		burst, proCap  int
		rate           float64
		hosts, metrics string
	}{
		{"flags", []string{"--burst", "3", "--pro-cap", "7", "--data", "/d"}, nil, 3, 7, 5, "", ""},
		{"env", []string{"--data", "/d"}, map[string]string{"CAPTIONQA_BURST": "4", "CAPTIONQA_BURST_RATE": "2.5", "CAPTIONQA_PRO_CAP": "9"}, 4, 9, 2.5, "", ""},
		{"listener flags", []string{"--allowed-host", "qa.lan", "--metrics-addr", "127.0.0.1:9464", "--data", "/d"}, nil, 20, 1000, 5, "qa.lan", "127.0.0.1:9464"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := cli.Env{Stdout: io.Discard, Stderr: io.Discard}
			cfg, code, ok := desktopConfig(tc.args, env, func(k string) string { return tc.env[k] })
			if !ok || code != cli.ExitOK {
				t.Fatalf("desktopConfig: code %d", code)
			}
			if cfg.Burst != tc.burst || cfg.ProDailyCap != tc.proCap || cfg.BurstPerSecond != tc.rate || cfg.MetricsAddr != tc.metrics {
				t.Errorf("cfg = burst %d, pro cap %d, rate %v, metrics %q", cfg.Burst, cfg.ProDailyCap, cfg.BurstPerSecond, cfg.MetricsAddr)
			}
			if tc.hosts != "" && (len(cfg.AllowedHosts) != 1 || cfg.AllowedHosts[0] != tc.hosts) {
				t.Errorf("allowed hosts %q", cfg.AllowedHosts)
			}
		})
	}
	if _, code, ok := desktopConfig([]string{"--burst", "0", "--data", "/d"}, cli.Env{Stdout: io.Discard, Stderr: io.Discard}, func(string) string { return "" }); ok || code != cli.ExitUsage {
		t.Errorf("--burst 0: ok %v code %d, want a usage error", ok, code)
	}
}
