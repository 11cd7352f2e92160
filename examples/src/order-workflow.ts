/**
 * A field-mapped workflow (Eino's `Workflow`): each node declares which fields of which predecessor
 * make up its input. Pricing, shipping and the stock check read different parts of one order in
 * parallel; a passthrough gathers the stock result and branches; the invoice takes fields of three
 * nodes across that branch (data-only inputs), and the quote is assembled from fields of several nodes.
 * Run it with `pnpm --filter @weft/examples order-workflow`.
 */

import { END, fromField, mapFields, START, toField, Workflow } from '@weft/compose';

export interface Item {
  readonly sku: string;
  readonly qty: number;
  readonly unitPrice: number;
}

export interface Order {
  readonly customer: { readonly id: string; readonly tier: 'standard' | 'gold' };
  readonly items: readonly Item[];
  readonly shipTo: { readonly country: string };
}

export interface Quote {
  /** Present when every item is in stock. */
  readonly invoice?: string;
  readonly missing: readonly string[];
  readonly days: number;
}

const inStock = new Set(['pen', 'ink', 'paper']);

/** Builds the workflow: four working nodes, a passthrough with a branch, field mappings throughout. */
export function buildQuoteWorkflow() {
  return (
    new Workflow<Order, Quote>()
      .addNode('price', (input: { items: readonly Item[]; tier: 'standard' | 'gold' }) => {
        const subtotal = input.items.reduce((sum, item) => sum + item.qty * item.unitPrice, 0);
        return { subtotal, discount: input.tier === 'gold' ? Math.round(subtotal * 0.1) : 0 };
      })
      .addInput('price', START, mapFields('items', 'items'), mapFields('customer.tier', 'tier'))
      .addNode('ship', (country: string) => (country === 'NO' ? { cost: 9, days: 2 } : { cost: 25, days: 6 }))
      .addInput('ship', START, fromField('shipTo.country'))
      .addNode('stock', (items: readonly Item[]) => ({
        missing: items.filter((item) => !inStock.has(item.sku)).map((item) => item.sku),
      }))
      .addInput('stock', START, fromField('items'))
      .addNode(
        'invoice',
        (input: { customerId: string; subtotal: number; discount: number; shipping: number }) =>
          `${input.customerId}: ${input.subtotal} - ${input.discount} + ${input.shipping} shipping = ${input.subtotal - input.discount + input.shipping}`,
      )
      // Waits for all three, then lets the branch decide whether to invoice.
      .addPassthrough('review')
      .addInput('review', 'stock', mapFields('missing', 'missing'))
      .addDependency('review', 'price')
      .addDependency('review', 'ship')
      .addBranch('review', (review) => (review.missing.length === 0 ? 'invoice' : END), ['invoice', END])
      // Across the branch: the data comes from these nodes, the trigger from the branch.
      .addInputWithOptions('invoice', START, [mapFields('customer.id', 'customerId')], {
        noDirectDependency: true,
      })
      .addInputWithOptions(
        'invoice',
        'price',
        [mapFields('subtotal', 'subtotal'), mapFields('discount', 'discount')],
        {
          noDirectDependency: true,
        },
      )
      .addInputWithOptions('invoice', 'ship', [mapFields('cost', 'shipping')], { noDirectDependency: true })
      .addInput(END, 'invoice', toField('invoice'))
      .addInputWithOptions(END, 'stock', [mapFields('missing', 'missing')], { noDirectDependency: true })
      .addInputWithOptions(END, 'ship', [mapFields('days', 'days')], { noDirectDependency: true })
      .compile({ name: 'quote' })
  );
}

/** Quotes an order that can ship and one that cannot. */
export async function main(print: (line: string) => void = console.log) {
  const workflow = buildQuoteWorkflow();
  const ready = await workflow.invoke({
    customer: { id: 'c-7', tier: 'gold' },
    items: [
      { sku: 'pen', qty: 10, unitPrice: 3 },
      { sku: 'ink', qty: 2, unitPrice: 10 },
    ],
    shipTo: { country: 'NO' },
  });
  print(`ready → ${JSON.stringify(ready)}`);
  const waiting = await workflow.invoke({
    customer: { id: 'c-8', tier: 'standard' },
    items: [{ sku: 'quill', qty: 1, unitPrice: 40 }],
    shipTo: { country: 'DE' },
  });
  print(`waiting → ${JSON.stringify(waiting)}`);
  print(workflow.toMermaid());
  return { ready, waiting };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
