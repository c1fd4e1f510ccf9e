package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// TestRealJobDropsEveryBuffer: DROP TABLE and TRUNCATE on a primary leave none of the table's
// buffers, found by a scan of every descriptor, as a primary has no cached relation sizes.
//
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers;
// src/backend/storage/smgr/smgr.c, smgrnblocks_cached.
func TestRealJobDropsEveryBuffer(t *testing.T) {
	out, err := runReal(lab.Args{"nbuffers": 2048.0, "pages": 300.0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"drop", "truncate"} {
		r := out[op].(map[string]any)
		if r["left"].(int) != 0 || r["path"] != "scan" || r["checked"].(uint64) != 2048 || r["seconds"].(float64) <= 0 {
			t.Errorf("%s in the model: %v; want no buffer left, a scan of the 2,048 descriptors and a time", op, r)
		}
	}
	if _, err := runReal(lab.Args{"nbuffers": 2048.0, "pages": 2000.0}, nil, nil); err == nil {
		t.Error("a table larger than half the pool was accepted")
	}
}
