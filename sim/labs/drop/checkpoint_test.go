package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestCheckpointForgetsSizes replays a checkpoint record before the drops. From PostgreSQL 17
// its replay frees the startup process's SMgrRelations and their cached sizes, so a commit
// that drops relations untouched since then scans the pool although they are far below the
// threshold; 16 keeps the sizes. VACUUM's truncation asks for the sizes again and still looks
// its blocks up.
// Reference: commit 8c8f7b199d, src/backend/access/transam/xlog.c, xlog_redo (smgrdestroyall); src/backend/catalog/storage.c, smgr_redo (smgrnblocks before smgrtruncate, 38c579b089)
func TestCheckpointForgetsSizes(t *testing.T) {
	for _, tc := range []struct {
		op         Operation
		version    sim.Version
		checkpoint bool
		want       string
	}{
		{OpTruncate, 16, true, "lookup"},
		{OpTruncate, 17, true, "scan"},
		{OpTruncate, 18, true, "scan"},
		{OpTruncate, 17, false, "lookup"},
		{OpDrop, 17, true, "scan"},
		{OpDrop, 16, true, "lookup"},
		{OpVacuum, 17, true, "lookup"},
		{OpVacuum, 18, true, "lookup"},
	} {
		res, err := RunExperiment(Experiment{NBuffers: 16384, Tables: []TableGroup{{Count: 10, Blocks: 1}}, Op: tc.op,
			InRecovery: true, Version: tc.version, Checkpoint: tc.checkpoint}, sim.DropPG14)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Path != tc.want {
			t.Errorf("%s on PG%d, checkpoint %v: path %s, want %s", tc.op, tc.version, tc.checkpoint, res[0].Path, tc.want)
		}
	}
	// On a primary nothing is cached anyway, and the checkpoint changes nothing.
	res, err := RunExperiment(Experiment{NBuffers: 16384, Tables: []TableGroup{{Count: 10, Blocks: 1}}, Op: OpDrop,
		Version: 16, Checkpoint: true}, sim.DropPG14)
	if err != nil || res[0].Path != "scan" {
		t.Errorf("primary: %v %v", res, err)
	}
}
