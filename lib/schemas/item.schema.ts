import { z } from "zod";
import { idParamSchema } from "./params.schema";
import { plainText } from "./text.schema";

const name = plainText(
  z.string().trim().min(1, "Name is required").max(200, "Name must be at most 200 characters"),
);
const quantity = z
  .number()
  .int("Quantity must be a whole number")
  .min(0, "Quantity must be 0 or more")
  .max(1_000_000_000);

/** itemCreateSchema is the body that creates one item. */
export const itemCreateSchema = z.object({ name, quantity: quantity.default(0) }).strict();

/** itemUpdateSchema edits an item. */
export const itemUpdateSchema = z
  .object({ name: name.optional(), quantity: quantity.optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" });

/** MAX_BULK_ITEMS is the most items one bulk request may create. */
export const MAX_BULK_ITEMS = 1_000;

/** itemBulkCreateSchema creates several items at once; its cost is the number of items. */
export const itemBulkCreateSchema = z
  .object({ items: z.array(itemCreateSchema).min(1, "Add at least one item").max(MAX_BULK_ITEMS) })
  .strict();

/** itemParamsSchema is the path of one item, `/api/v1/items/:id`. */
export const itemParamsSchema = z.object({ id: idParamSchema });

/** ItemCreate is a validated new item. */
export type ItemCreate = z.infer<typeof itemCreateSchema>;
/** ItemUpdate is a validated item edit. */
export type ItemUpdate = z.infer<typeof itemUpdateSchema>;
