import { type EvalSet, parseEvalSet } from '@weft/eval';

/**
 * The demo's eval set for the assistant agent: weather lookups, bookings approved and rejected, small
 * talk without tools. The other demo agents fail most of it, which makes a before/after comparison.
 *
 * @example
 * ```ts
 * defineApp({ agents: { assistant }, evals: { assistant: assistantEvals() } });
 * ```
 */
export function assistantEvals(): EvalSet {
  return parseEvalSet({
    name: 'assistant',
    description: 'The assistant looks up weather, books tables only once approved, and chats without tools.',
    cases: [
      {
        id: 'weather-lyon',
        tags: ['weather'],
        turns: [
          {
            user: 'What is the weather in Lyon?',
            expect: {
              tools: [{ name: 'get_weather', args: { city: 'Lyon' } }],
              response: { contains: 'Lyon' },
            },
          },
        ],
      },
      {
        id: 'booking-approved',
        tags: ['booking'],
        turns: [
          {
            user: 'Please book a table for two tonight',
            expect: { tools: [{ name: 'book_table', args: { people: 2 } }] },
          },
          { resume: true, expect: { response: { contains: 'Booked Chez Weft' } } },
        ],
      },
      {
        id: 'booking-rejected',
        tags: ['booking'],
        turns: [
          { user: 'Book a table for two, please', expect: { tools: [{ name: 'book_table' }] } },
          { resume: false, expect: { response: { regex: 'did not book' } } },
        ],
      },
      {
        id: 'small-talk',
        turns: [
          { user: 'Hello there', expect: { tools: [], response: { contains: 'scripted demo model' } } },
        ],
      },
    ],
  });
}
