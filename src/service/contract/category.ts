/** Section 2.6: the category list (4.11). */
import { z } from 'zod'
import { CategoryLens } from './enums.js'
/** 2.6 Category. */
export const Category = z.looseObject({
  key: z.string(),
  display_name: z.string(),
  description: z.string()
})
export type Category = z.infer<typeof Category>

export const CategoryList = z.looseObject({
  categories: z.array(Category),
  lens: z.string()
})
export type CategoryList = z.infer<typeof CategoryList>

export const ListCategoriesQuery = z.strictObject({ lens: CategoryLens.default('security') })
