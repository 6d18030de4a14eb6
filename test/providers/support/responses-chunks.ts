/**
 * OpenAI Responses stream events (`ResponseStreamEvent`s, as openai-node yields them) for
 * tests that write a response out chunk by chunk.
 */

export const added = (output_index: number, item: object) => ({
  type: 'response.output_item.added',
  output_index,
  item,
});

export const done = (output_index: number, item: object) => ({
  type: 'response.output_item.done',
  output_index,
  item,
});

export const completed = {
  type: 'response.completed',
  response: { id: 'resp_1', status: 'completed' },
};

/**
 * An output item that arrives whole, as the built-in client items do (no argument deltas):
 * `output_item.added` in progress, then `output_item.done` completed.
 */
export const whole = (output_index: number, item: object) => [
  added(output_index, { ...item, status: 'in_progress' }),
  done(output_index, { ...item, status: 'completed' }),
];
