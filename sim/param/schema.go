package param

// Field describes one parameter for the page, which builds its controls from it, and for
// the typings of the bridge. It is Param without the functions, ready for JSON.
type Field struct {
	Key      string   `json:"key"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"`
	Unit     string   `json:"unit,omitempty"`
	Default  string   `json:"default"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Step     float64  `json:"step,omitempty"`
	Choices  []Option `json:"choices,omitempty"`
	Presets  []Option `json:"presets,omitempty"`
	Doc      string   `json:"doc"`
	Flag     string   `json:"flag,omitempty"`
	Advanced bool     `json:"advanced,omitempty"`
}

// Fields describes the parameters the page shows (those not marked CLI), in table order.
// Bounds that depend on other values are given for the defaults; a load reports the bounds
// in force (Limits).
func (t *Table) Fields() []Field {
	var out []Field
	defaults := t.Defaults()
	for i := range t.Params {
		p := &t.Params[i]
		if p.CLI {
			continue
		}
		f := Field{
			Key: p.Key, Label: p.Label, Kind: p.Kind.String(), Unit: p.Unit, Default: p.Default,
			Step: p.Step, Choices: p.Choices, Presets: p.Presets, Doc: p.Doc, Advanced: p.Advanced,
		}
		if f.Label == "" {
			f.Label = p.Key
		}
		if !p.Page {
			f.Flag = "--" + p.FlagName()
		}
		if p.Kind == Int || p.Kind == Float {
			lo, hi := p.Min, p.Max
			if p.Bounds != nil {
				lo, hi, _ = p.Bounds(defaults)
			}
			f.Min, f.Max = &lo, &hi
		}
		out = append(out, f)
	}
	return out
}

// Limit is what a parameter may take for the values in force: the range of a number, and
// the offered values (presets and choices) that those values refuse, each with the reason,
// so that a control can show them as unavailable rather than offer what is refused (the
// ring sizes of a version without vacuum_buffer_usage_limit).
type Limit struct {
	Min     *float64          `json:"min,omitempty"`
	Max     *float64          `json:"max,omitempty"`
	Refused map[string]string `json:"refused,omitempty"`
}

// Limits returns, by key, the limit of every number parameter and of every parameter with
// an offered value that values v refuse. A refusal is the parameter's own check (read,
// Parse) failing on the offered value, so it says what loading that value would say.
func (t *Table) Limits(v Values) map[string]Limit {
	out := map[string]Limit{}
	for i := range t.Params {
		p := &t.Params[i]
		var l Limit
		if p.Kind == Int || p.Kind == Float {
			lo, hi := p.Min, p.Max
			if p.Bounds != nil {
				lo, hi, _ = p.Bounds(v)
			}
			l.Min, l.Max = &lo, &hi
		}
		for _, o := range append(p.Choices[:len(p.Choices):len(p.Choices)], p.Presets...) {
			if _, prob := p.read(o.Value, v); prob != nil {
				if l.Refused == nil {
					l.Refused = map[string]string{}
				}
				l.Refused[o.Value] = prob.Problem
			}
		}
		if l.Min != nil || l.Refused != nil {
			out[p.Key] = l
		}
	}
	return out
}
