// The labs' page modules: the one registration line each lab adds to the page. A lab
// without a module here still works, with the page's generic form, counters and legend.
export { default as free } from './free/index.js';
export { default as drop } from './drop/index.js';
export { default as ring } from './ring/index.js';
export { default as pins } from './pins/index.js';
