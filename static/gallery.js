// The experiments gallery: one button per experiment, grouped by topic, the notes' open questions first.

import { EXPERIMENTS, TOPICS } from './experiments.js';
import { onLangChange, registerStrings, t, getLang } from './i18n.js';

registerStrings({
  en: {
    'gallery.open_questions': "The notes' open questions",
    'gallery.question': 'Open question {n}',
    'topic.basics': 'Tensor basics',
    'topic.leaf': 'Leaves and in-place operations',
    'topic.backward': 'backward() and .grad',
    'topic.detach': '.data and .detach()',
    'topic.more': 'What comes next',
  },
  'zh-CN': {
    'gallery.open_questions': '笔记中的未解之谜',
    'gallery.question': '未解之谜 {n}',
    'topic.basics': '张量基础',
    'topic.leaf': '叶子张量与原地操作',
    'topic.backward': 'backward() 与 .grad',
    'topic.detach': '.data 与 .detach()',
    'topic.more': '进阶',
  },
});

/** The groups to show: the open questions, then each topic's other experiments. */
function groups() {
  const open = EXPERIMENTS.filter((e) => e.unsolved).sort((a, b) => a.unsolved - b.unsolved);
  return [
    { key: 'gallery.open_questions', id: 'open-questions', items: open },
    ...TOPICS.map((topic) => ({
      key: `topic.${topic}`, id: topic, items: EXPERIMENTS.filter((e) => e.topic === topic && !e.unsolved),
    })),
  ].filter((group) => group.items.length);
}

function entry(experiment, lang, selectedId, onClick) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'gallery-entry';
  button.setAttribute('data-testid', 'experiment');
  button.dataset.id = experiment.id;
  button.title = experiment.look[lang] ?? experiment.look.en;
  if (experiment.id === selectedId) button.setAttribute('aria-current', 'true');
  if (experiment.unsolved) {
    const badge = document.createElement('span');
    badge.className = 'gallery-badge';
    badge.textContent = t('gallery.question', { n: experiment.unsolved });
    button.append(badge);
  }
  const title = document.createElement('span');
  title.className = 'gallery-title';
  title.textContent = experiment.title[lang] ?? experiment.title.en;
  button.append(title);
  button.addEventListener('click', () => onClick(experiment));
  return button;
}

/**
 * Draw the gallery into container; clicking an entry calls onSelect(experiment) (experiment.code is the text to
 * load and run). Redraws itself when the language changes. Returns {select(id), destroy()}.
 */
export function renderGallery(container, { onSelect = () => {} } = {}) {
  let selectedId = null;
  const choose = (experiment) => {
    selectedId = experiment.id;
    for (const el of container.querySelectorAll('[data-testid="experiment"]')) {
      el.toggleAttribute('aria-current', el.dataset.id === selectedId);
    }
    onSelect(experiment);
  };
  const draw = () => {
    const lang = getLang();
    container.classList.add('gallery');
    container.replaceChildren(...groups().map((group) => {
      const section = document.createElement('section');
      section.className = 'gallery-group';
      section.dataset.group = group.id;
      const heading = document.createElement('h3');
      heading.textContent = t(group.key);
      const list = document.createElement('ul');
      for (const experiment of group.items) {
        const item = document.createElement('li');
        item.append(entry(experiment, lang, selectedId, choose));
        list.append(item);
      }
      section.append(heading, list);
      return section;
    }));
  };
  draw();
  const stop = onLangChange(draw);
  return {
    select(id) {
      const experiment = EXPERIMENTS.find((e) => e.id === id);
      if (experiment) choose(experiment);
    },
    destroy: stop,
  };
}
