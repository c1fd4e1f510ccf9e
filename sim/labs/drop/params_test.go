package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestParams checks that good values are read and bad ones fall back with a message.
func TestParams(t *testing.T) {
	v, errs := table.Parse(map[string]string{
		"shared_buffers": "1GB", "tables": "1xNB/32,10x5", "op": "truncate", "transactions": "single",
		"mode": "primary", "policy": "lookup", "threshold": "NB/16",
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	e, pol := ExperimentOf(v)
	if e.NBuffers != 131072 || len(e.Tables) != 2 || e.Tables[0].Resolve(e.NBuffers) != 4096 || e.Op != OpTruncate ||
		!e.SingleXact || e.InRecovery || pol != sim.DropLookup || e.Threshold.Resolve(e.NBuffers) != 8192 {
		t.Fatalf("read %v as %+v", v, e)
	}
	_, errs = table.Parse(map[string]string{
		"shared_buffers": "12XB", "tables": "x", "op": "delete", "transactions": "some",
		"mode": "standby", "policy": "pg12", "threshold": "NB/0",
	})
	if len(errs) != 7 {
		t.Fatalf("%d errors for 7 bad values: %v", len(errs), errs)
	}
	if got := errs[0].Error(); got != `shared_buffers "12XB": not a size from 128kB to 100GB, like 128MB or 1GB; using 128MB` {
		t.Errorf("message %q", got)
	}
	// VACUUM in one transaction and relations beyond memory are refused together.
	v, errs = table.Parse(map[string]string{"op": "vacuum", "transactions": "single", "shared_buffers": "100GB", "tables": "2000xNB/16"})
	if len(errs) != 2 || v.Text("transactions") != "per-relation" || v.Text("tables") != DefaultTables {
		t.Fatalf("vacuum in one transaction over 1TB: %v, %v", v, errs)
	}
}
