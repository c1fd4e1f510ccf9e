package sim

import "testing"

// fuzzRun builds a small simulation from the first bytes of data and applies one command per
// following byte pair, checking the invariants after each. It returns the simulation.
func fuzzRun(t *testing.T, data []byte) *Sim {
	if len(data) < 3 {
		return nil
	}
	w := DefaultWorkload(16)
	w.Relations = []RelationSpec{{Name: "a", Blocks: 64, Weight: 3}, {Name: "u", Blocks: 24, Unlogged: true, Weight: 1}}
	w.Clients = int(data[1] % 4)
	w.UpdatePercent = int(data[2]) % 101
	w.Distribution = Distribution(data[1] >> 7)
	w.BgWriterPages = int(data[2]>>6) * 10
	nb := MinNBuffers + int(data[0]%32)
	s, err := New(Config{NBuffers: nb, Version: Version(17 + int(data[0]>>6)%3), Seed: uint64(data[0]), Workload: &w})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	data = data[3:]
	for i := 0; i+1 < len(data); i += 2 {
		op, arg := data[i], data[i+1]
		page := PageCmd{Backend: int(op>>4) % 4, Rel: "a", Block: BlockNumber(arg % 64)}
		if arg&0x80 != 0 {
			page.Rel, page.Block = "u", BlockNumber(arg%24)
		}
		var c Command
		switch op % 10 {
		case 0, 1:
			c = PinCmd{page}
		case 2:
			c = UnpinCmd{page}
		case 3:
			c = ReadCmd{page}
		case 4:
			c = UpdateCmd{page}
		case 5:
			c = DirtyCmd{page}
		case 6:
			c = StepCmd{N: int(arg % 32)}
		case 7:
			c = WALFlushCmd{}
		case 8:
			c = CheckpointCmd{}
		default:
			c = BgWriterCmd{}
		}
		_ = s.Apply(c) // refusals (unpinning what is not pinned, no unpinned buffers) are fine
		if err := s.CheckInvariants(); err != nil {
			t.Fatalf("after %v: %v", c, err)
		}
	}
	return s
}

// FuzzCommands decodes bytes into a configuration and commands, checks the invariants after
// every command, and checks that the same bytes give the same state twice.
func FuzzCommands(f *testing.F) {
	f.Add([]byte{0, 1, 50, 0, 1, 1, 2, 4, 3, 6, 9, 2, 1})
	f.Add([]byte{31, 3, 255, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0, 16, 3, 17})
	f.Add([]byte{200, 130, 100, 4, 129, 4, 130, 6, 31, 8, 0, 6, 31, 7, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		a := fuzzRun(t, data)
		b := fuzzRun(t, data)
		if a == nil {
			return
		}
		if a.Hash() != b.Hash() || a.Describe() != b.Describe() {
			t.Fatalf("two runs of the same input differ:\n%s\n%s", a.Describe(), b.Describe())
		}
	})
}
