package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// Command is one input to the simulation: a control change or an action. Every input goes
// through Sim.Apply, which logs it, so a run is its Config plus its command log. String
// returns the text form that ParseCommand reads back.
type Command interface {
	String() string
	apply(s *Sim) error
}

// StepCmd advances the simulation by N steps.
type StepCmd struct{ N int }

// UntilCmd steps until the virtual clock reaches T, or MaxStepsPerCommand steps have run;
// logged as one command however many steps it takes.
type UntilCmd struct{ T Duration }

// PageCmd names a backend and a page, for the commands that act on one page.
type PageCmd struct {
	Backend int // command-driven backend, 0 to 63
	Rel     string
	Fork    ForkNumber
	Block   BlockNumber
}

// PinCmd is ReadBuffer by a command-driven backend, keeping the pin.
type PinCmd struct{ PageCmd }

// UnpinCmd is ReleaseBuffer of a page the backend pins.
type UnpinCmd struct{ PageCmd }

// ReadCmd is ReadBuffer then ReleaseBuffer.
type ReadCmd struct{ PageCmd }

// UpdateCmd is ReadBuffer, a WAL-logged change of the page, then ReleaseBuffer.
type UpdateCmd struct{ PageCmd }

// DirtyCmd is MarkBufferDirty of a page the backend pins, without WAL (as for a hint).
type DirtyCmd struct{ PageCmd }

// WALFlushCmd flushes all inserted WAL, as the WAL writer does.
type WALFlushCmd struct{}

// CheckpointCmd writes every dirty buffer.
type CheckpointCmd struct{}

// BgWriterCmd runs one background-writer round.
type BgWriterCmd struct{}

// RelationCmd creates a relation with Blocks blocks in its main fork and, optionally, FSM
// and visibility-map forks; Cached lists the forks whose size the startup process has
// cached (smgr_cached_nblocks).
type RelationCmd struct {
	Name     string
	Blocks   int
	FSM, VM  int
	Unlogged bool
	Cached   []ForkNumber
}

// RecoveryCmd sets InRecovery: whether the pool belongs to a startup process replaying WAL.
type RecoveryCmd struct{ On bool }

// DropPolicyCmd sets the drop policy and threshold (0: NBuffers/32).
type DropPolicyCmd struct {
	Policy    DropPolicy
	Threshold Threshold
}

// DropRelCmd runs DropRelationBuffers on some forks of a relation from first blocks.
type DropRelCmd struct {
	Rel   string
	Forks []ForkNumber
	First []BlockNumber
}

// DropAllCmd runs DropRelationsAllBuffers on the relations.
type DropAllCmd struct{ Rels []string }

// ClientsCmd sets the number of workload clients.
type ClientsCmd struct{ N int }

// UpdatesCmd sets the workload's update percentage.
type UpdatesCmd struct{ Percent int }

// DistributionCmd sets the workload's key distribution and Zipfian skew.
type DistributionCmd struct {
	Distribution Distribution
	S            float64
}

func (c StepCmd) String() string     { return fmt.Sprintf("step %d", c.N) }
func (c UntilCmd) String() string    { return "until " + c.T.ExactString() }
func (c PinCmd) String() string      { return "pin " + c.PageCmd.String() }
func (c UnpinCmd) String() string    { return "unpin " + c.PageCmd.String() }
func (c ReadCmd) String() string     { return "read " + c.PageCmd.String() }
func (c UpdateCmd) String() string   { return "update " + c.PageCmd.String() }
func (c DirtyCmd) String() string    { return "dirty " + c.PageCmd.String() }
func (WALFlushCmd) String() string   { return "walflush" }
func (CheckpointCmd) String() string { return "checkpoint" }
func (BgWriterCmd) String() string   { return "bgwriter" }
func (c ClientsCmd) String() string  { return fmt.Sprintf("clients %d", c.N) }
func (c UpdatesCmd) String() string  { return fmt.Sprintf("updates %d", c.Percent) }
func (c DistributionCmd) String() string {
	return fmt.Sprintf("distribution %s s=%g", c.Distribution, c.S)
}

func (c RelationCmd) String() string {
	s := fmt.Sprintf("relation %s blocks=%d", c.Name, c.Blocks)
	if c.FSM > 0 {
		s += fmt.Sprintf(" fsm=%d", c.FSM)
	}
	if c.VM > 0 {
		s += fmt.Sprintf(" vm=%d", c.VM)
	}
	if c.Unlogged {
		s += " unlogged"
	}
	if len(c.Cached) > 0 {
		s += " cached=" + joinForks(c.Cached)
	}
	return s
}

func (c RecoveryCmd) String() string {
	if c.On {
		return "recovery on"
	}
	return "recovery off"
}

func (c DropPolicyCmd) String() string {
	if c.Threshold != (Threshold{}) {
		return fmt.Sprintf("droppolicy %s threshold=%s", c.Policy, c.Threshold)
	}
	return "droppolicy " + c.Policy.String()
}

func (c DropRelCmd) String() string {
	first := make([]string, len(c.First))
	for i, b := range c.First {
		first[i] = strconv.FormatUint(uint64(b), 10)
	}
	return fmt.Sprintf("droprel rel=%s forks=%s first=%s", c.Rel, joinForks(c.Forks), strings.Join(first, ","))
}

func (c DropAllCmd) String() string { return "dropall rels=" + strings.Join(c.Rels, ",") }

func joinForks(fs []ForkNumber) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	return strings.Join(names, ",")
}

// String formats the page as "b=1 rel=a blk=3", with "fork=fsm" when not the main fork.
func (c PageCmd) String() string {
	s := fmt.Sprintf("b=%d rel=%s", c.Backend, c.Rel)
	if c.Fork != MainForkNum {
		s += " fork=" + c.Fork.String()
	}
	return s + fmt.Sprintf(" blk=%d", c.Block)
}

// MaxStepsPerCommand bounds one StepCmd, so no single input can hang a page.
const MaxStepsPerCommand = 100_000_000

func (c StepCmd) apply(s *Sim) error {
	if c.N < 0 || c.N > MaxStepsPerCommand {
		return fmt.Errorf("step count %d is not between 0 and %d", c.N, MaxStepsPerCommand)
	}
	if s.scenario != nil {
		n, err := s.scenario.Step(s, c.N)
		s.Pool.Stats.Steps += uint64(n)
		return err
	}
	return s.run(c.N)
}

func (c UntilCmd) apply(s *Sim) error {
	for range MaxStepsPerCommand {
		if s.now >= c.T || s.Done() {
			return nil
		}
		if err := (StepCmd{N: 1}).apply(s); err != nil {
			return err
		}
		// A scenario hands the time its step took to the pool, which Apply moves to the
		// clock after a command: move it after each step here, as stepping one at a time
		// would, so that the loop sees the clock it waits for.
		s.now += s.Pool.takeElapsed()
	}
	return fmt.Errorf("the clock did not reach %v within %d steps", c.T, MaxStepsPerCommand)
}

// resolve finds the backend and the tag a page command names.
func (c PageCmd) resolve(s *Sim) (*Backend, BufferTag, error) {
	b, err := s.backend(c.Backend)
	if err != nil {
		return nil, BufferTag{}, err
	}
	ri := s.Pool.cat.lookupName(c.Rel)
	if ri < 0 {
		return nil, BufferTag{}, fmt.Errorf("relation %q does not exist", c.Rel)
	}
	return b, BufferTag{Locator: s.Pool.cat.rels[ri].Locator, Fork: c.Fork, Block: c.Block}, nil
}

// pinned returns the buffer holding the page, which b must pin.
func (c PageCmd) pinned(s *Sim) (*Backend, int, error) {
	b, tag, err := c.resolve(s)
	if err != nil {
		return nil, -1, err
	}
	k := packTag(tag)
	id := s.Pool.table.lookup(k, k.hash())
	if id < 0 || b.PinCount(id) == 0 {
		return nil, -1, fmt.Errorf("backend %d does not pin %s", c.Backend, s.TagName(tag))
	}
	return b, id, nil
}

func (c PinCmd) apply(s *Sim) error {
	b, tag, err := c.resolve(s)
	if err != nil {
		return err
	}
	_, err = s.Pool.ReadBuffer(b, tag)
	return err
}

func (c UnpinCmd) apply(s *Sim) error {
	b, id, err := c.pinned(s)
	if err != nil {
		return err
	}
	return s.Pool.ReleaseBuffer(b, id)
}

func (c ReadCmd) apply(s *Sim) error {
	b, tag, err := c.resolve(s)
	if err != nil {
		return err
	}
	id, err := s.Pool.ReadBuffer(b, tag)
	if err != nil {
		return err
	}
	return s.Pool.ReleaseBuffer(b, id)
}

func (c UpdateCmd) apply(s *Sim) error {
	b, tag, err := c.resolve(s)
	if err != nil {
		return err
	}
	id, err := s.Pool.ReadBuffer(b, tag)
	if err != nil {
		return err
	}
	if err := s.Pool.LogPageChange(b, id, updateRecordBytes); err != nil {
		return err
	}
	return s.Pool.ReleaseBuffer(b, id)
}

func (c DirtyCmd) apply(s *Sim) error {
	b, id, err := c.pinned(s)
	if err != nil {
		return err
	}
	return s.Pool.MarkBufferDirty(b, id)
}

func (WALFlushCmd) apply(s *Sim) error {
	s.Pool.xlogFlush(s.Pool.WAL.Insert, ByCommand)
	return nil
}

func (CheckpointCmd) apply(s *Sim) error {
	s.Pool.checkpointBuffers(ByCheckpoint)
	return nil
}

func (BgWriterCmd) apply(s *Sim) error {
	s.Pool.bgBufferSync(s.allocs, max(s.work.BgWriterPages, 1))
	s.allocs = 0
	return nil
}

func (c RelationCmd) apply(s *Sim) error {
	if c.FSM < 0 || c.VM < 0 || c.FSM > 1<<30 || c.VM > 1<<30 {
		return fmt.Errorf("relation %q: fork sizes must be between 0 and 2^30", c.Name)
	}
	if err := s.createRelation(c.Name, c.Blocks, c.Unlogged); err != nil {
		return err
	}
	r := s.Pool.cat.rels[len(s.Pool.cat.rels)-1]
	r.NBlocks[FSMForkNum], r.NBlocks[VisibilityMapForkNum] = BlockNumber(c.FSM), BlockNumber(c.VM)
	for _, f := range c.Cached {
		r.SizeCached[f] = true
	}
	return nil
}

func (c RecoveryCmd) apply(s *Sim) error {
	s.Pool.InRecovery = c.On
	return nil
}

func (c DropPolicyCmd) apply(s *Sim) error {
	s.Pool.Drop = DropSettings{Policy: c.Policy, Threshold: c.Threshold}
	return nil
}

func (c DropRelCmd) apply(s *Sim) error {
	ri := s.Pool.cat.lookupName(c.Rel)
	if ri < 0 {
		return fmt.Errorf("relation %q does not exist", c.Rel)
	}
	if len(c.Forks) != len(c.First) || len(c.Forks) == 0 {
		return fmt.Errorf("droprel needs as many first blocks as forks")
	}
	res, err := s.Pool.DropRelationBuffers(s.Pool.cat.rels[ri], c.Forks, c.First)
	s.lastDrop = res
	return err
}

func (c DropAllCmd) apply(s *Sim) error {
	var rels []*Relation
	for _, name := range c.Rels {
		ri := s.Pool.cat.lookupName(name)
		if ri < 0 {
			return fmt.Errorf("relation %q does not exist", name)
		}
		rels = append(rels, s.Pool.cat.rels[ri])
	}
	res, err := s.Pool.DropRelationsAllBuffers(rels)
	s.lastDrop = res
	return err
}

func (c ClientsCmd) apply(s *Sim) error {
	w := s.work
	w.Clients = c.N
	if err := w.Validate(s.Pool.NBuffers); err != nil {
		return err
	}
	s.setClients(c.N)
	return nil
}

func (c UpdatesCmd) apply(s *Sim) error {
	w := s.work
	w.UpdatePercent = c.Percent
	if err := w.Validate(s.Pool.NBuffers); err != nil {
		return err
	}
	s.work.UpdatePercent = c.Percent
	return nil
}

func (c DistributionCmd) apply(s *Sim) error {
	w := s.work
	w.Distribution, w.ZipfS = c.Distribution, c.S
	if err := w.Validate(s.Pool.NBuffers); err != nil {
		return err
	}
	if s.work.ZipfS != c.S {
		s.zipf = nil
	}
	s.work.Distribution, s.work.ZipfS = c.Distribution, c.S
	return nil
}

// ParseCommand reads the text form of a command: a verb and key=value arguments, as String
// writes them ("pin b=1 rel=a blk=3", "step 100", "relation a blocks=10 unlogged").
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	verb, args := f[0], f[1:]
	page := func() (PageCmd, error) { return parsePage(args) }
	switch verb {
	case "step":
		n := 1
		if len(args) > 0 {
			v, err := strconv.Atoi(args[0])
			if err != nil || len(args) > 1 {
				return nil, fmt.Errorf("step takes one count, like \"step 100\"")
			}
			n = v
		}
		return StepCmd{N: n}, nil
	case "until":
		if len(args) != 1 {
			return nil, fmt.Errorf("until takes a time, like \"until 1.5s\"")
		}
		d, err := ParseDuration(args[0])
		if err != nil {
			return nil, fmt.Errorf("until: %w", err)
		}
		return UntilCmd{T: d}, nil
	case "pin", "unpin", "read", "update", "dirty":
		pc, err := page()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", verb, err)
		}
		switch verb {
		case "pin":
			return PinCmd{pc}, nil
		case "unpin":
			return UnpinCmd{pc}, nil
		case "read":
			return ReadCmd{pc}, nil
		case "update":
			return UpdateCmd{pc}, nil
		}
		return DirtyCmd{pc}, nil
	case "walflush", "checkpoint", "bgwriter":
		if len(args) > 0 {
			return nil, fmt.Errorf("%s takes no arguments", verb)
		}
		switch verb {
		case "walflush":
			return WALFlushCmd{}, nil
		case "checkpoint":
			return CheckpointCmd{}, nil
		}
		return BgWriterCmd{}, nil
	case "relation":
		if len(args) == 0 {
			return nil, fmt.Errorf("relation needs a name, like \"relation a blocks=10\"")
		}
		c := RelationCmd{Name: args[0], Blocks: 1}
		for _, a := range args[1:] {
			k, v, _ := strings.Cut(a, "=")
			switch k {
			case "blocks", "fsm", "vm":
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("relation: %s %q is not a number", k, v)
				}
				switch k {
				case "blocks":
					c.Blocks = n
				case "fsm":
					c.FSM = n
				default:
					c.VM = n
				}
			case "unlogged":
				c.Unlogged = true
			case "cached":
				fs, err := parseForks(v)
				if err != nil {
					return nil, fmt.Errorf("relation: %w", err)
				}
				c.Cached = fs
			default:
				return nil, fmt.Errorf("relation: unknown argument %q", a)
			}
		}
		return c, nil
	case "clients", "updates":
		if len(args) != 1 {
			return nil, fmt.Errorf("%s takes one number", verb)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", verb, args[0])
		}
		if verb == "clients" {
			return ClientsCmd{N: n}, nil
		}
		return UpdatesCmd{Percent: n}, nil
	case "distribution":
		if len(args) == 0 {
			return nil, fmt.Errorf("distribution needs uniform or zipfian")
		}
		d, err := ParseDistribution(args[0])
		if err != nil {
			return nil, err
		}
		c := DistributionCmd{Distribution: d, S: 1.1}
		for _, a := range args[1:] {
			k, v, _ := strings.Cut(a, "=")
			x, err := strconv.ParseFloat(v, 64)
			if k != "s" || err != nil {
				return nil, fmt.Errorf("distribution: unknown argument %q", a)
			}
			c.S = x
		}
		return c, nil
	case "recovery":
		if len(args) != 1 || (args[0] != "on" && args[0] != "off") {
			return nil, fmt.Errorf("recovery takes on or off")
		}
		return RecoveryCmd{On: args[0] == "on"}, nil
	case "droppolicy":
		if len(args) == 0 || len(args) > 2 {
			return nil, fmt.Errorf("droppolicy takes pg13, pg14 or lookup and an optional threshold=N")
		}
		pol, err := ParseDropPolicy(args[0])
		if err != nil {
			return nil, err
		}
		c := DropPolicyCmd{Policy: pol}
		if len(args) == 2 {
			k, v, _ := strings.Cut(args[1], "=")
			t, err := ParseThreshold(v)
			if k != "threshold" || err != nil {
				return nil, fmt.Errorf("droppolicy: %q is not threshold=N or threshold=NB/k", args[1])
			}
			c.Threshold = t
		}
		return c, nil
	case "droprel":
		var c DropRelCmd
		for _, a := range args {
			k, v, _ := strings.Cut(a, "=")
			switch k {
			case "rel":
				c.Rel = v
			case "forks":
				fs, err := parseForks(v)
				if err != nil {
					return nil, fmt.Errorf("droprel: %w", err)
				}
				c.Forks = fs
			case "first":
				for _, f := range strings.Split(v, ",") {
					n, err := strconv.ParseUint(f, 10, 32)
					if err != nil {
						return nil, fmt.Errorf("droprel: first block %q is not a block number", f)
					}
					c.First = append(c.First, BlockNumber(n))
				}
			default:
				return nil, fmt.Errorf("droprel: unknown argument %q", a)
			}
		}
		return c, nil
	case "dropall":
		if len(args) != 1 || !strings.HasPrefix(args[0], "rels=") {
			return nil, fmt.Errorf("dropall takes rels=a,b,...")
		}
		return DropAllCmd{Rels: strings.Split(strings.TrimPrefix(args[0], "rels="), ",")}, nil
	}
	return nil, fmt.Errorf("unknown command %q", verb)
}

func parseForks(s string) ([]ForkNumber, error) {
	var fs []ForkNumber
	for _, name := range strings.Split(s, ",") {
		f, err := parseFork(name)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

func parsePage(args []string) (PageCmd, error) {
	var c PageCmd
	seen := map[string]bool{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || seen[k] {
			return c, fmt.Errorf("argument %q is not key=value, or repeats a key", a)
		}
		seen[k] = true
		switch k {
		case "b":
			n, err := strconv.Atoi(v)
			if err != nil {
				return c, fmt.Errorf("backend %q is not a number", v)
			}
			c.Backend = n
		case "rel":
			c.Rel = v
		case "fork":
			f, err := parseFork(v)
			if err != nil {
				return c, err
			}
			c.Fork = f
		case "blk":
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil {
				return c, fmt.Errorf("block %q is not a block number", v)
			}
			c.Block = BlockNumber(n)
		default:
			return c, fmt.Errorf("unknown argument %q", k)
		}
	}
	if c.Rel == "" {
		return c, fmt.Errorf("rel= is required")
	}
	return c, nil
}

func parseFork(s string) (ForkNumber, error) {
	for i, n := range forkNames {
		if s == n {
			return ForkNumber(i), nil
		}
	}
	return 0, fmt.Errorf("fork %q is not main, fsm, vm or init", s)
}
