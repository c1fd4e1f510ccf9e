// Saving what the page shows: a Blob as a file, and tables as CSV.

// save offers blob to the reader as a file called name.
export function save(blob, name) {
  if (!blob) return;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// csv writes rows (arrays of values, the first the header) as RFC 4180 CSV.
export function csv(rows) {
  const cell = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

// saveCSV offers rows as a CSV file called name.
export function saveCSV(rows, name) {
  save(new Blob([csv(rows)], { type: 'text/csv' }), name);
}
