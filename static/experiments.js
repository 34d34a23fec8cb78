// The gallery's experiments and the error cards, from experiments.json (the Python tests check the same file).

export const TOPICS = ['basics', 'leaf', 'backward', 'detach', 'more'];

/** Load the data once; a failure leaves an empty gallery rather than breaking every module that imports this. */
async function load() {
  try {
    const response = await fetch(new URL('./experiments.json', import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } catch (err) {
    console.error('experiments.json could not be loaded:', err);
    return { experiments: [], errors: [] };
  }
}

const data = await load();
const joinLines = (lines) => lines.join('\n') + '\n';

/** [{id, topic, unsolved?, title, code, look, highlight, explain, expect}], code as one string. */
export const EXPERIMENTS = data.experiments.map((e) => ({ ...e, code: joinLines(e.code) }));

/** [{id, type, pattern, title, explain, highlight, example}], tried in order; the first match explains an error. */
export const ERROR_CARDS = data.errors.map((c) => ({ ...c, example: joinLines(c.example), regex: new RegExp(c.pattern) }));

export function getExperiment(id) {
  return EXPERIMENTS.find((e) => e.id === id) ?? null;
}
