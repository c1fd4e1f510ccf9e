// Package fidelity checks bufferscope against real PostgreSQL servers.
//
// It installs real server binaries (several majors side by side) into a cache folder of the
// project's own, initdb's throwaway clusters in temporary directories, runs experiments on
// them and records exact counts (pages left in shared buffers, LP_DEAD items on a leaf, WAL
// syncs) or growth shapes (time per drop against NBuffers), never absolute times for their
// own sake. Report renders the results as Markdown beside the simulated figures, which come
// from one Simulated hook per experiment.
//
// A typical run:
//
//	bins, err := fidelity.Install(ctx, ".cache/postgres", []int{13, 17, 18})
//	env, err := fidelity.NewEnv(ctx, bins, log.Printf)
//	defer env.Close() // stops every server it started and removes its files
//	res, err := fidelity.VacuumRing(ctx, env, 17)
//
// PostgreSQL refuses to run as root: when the process is root, every server command runs
// through runuser as the user nobody, and the clusters live in directories owned by nobody.
// NewEnv first checks that nobody can run the binaries; a cache inside a private folder (a clone
// in a mode-0700 folder) is staged where nobody can reach it, or NewEnv names the folder in the way.
package fidelity
