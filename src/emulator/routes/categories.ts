/** Categories (section 4.11): the static category list of a lens. */
import { CategoryList, ListCategoriesQuery } from '../../service/contract/index.js'
import { codedError, ok, parseRequest, queryObject } from '../http-util.js'
import { categoriesOfLens } from '../taxonomy.js'
import type { RouteTable } from './route-context.js'

export const categoryRoutes = {
  listCategories(_ctx, ws, req) {
    const query = parseRequest(ListCategoriesQuery, 'query', queryObject(req.query))
    if (ws.trial) throw codedError(403, 'taxonomy_not_included', 'the category list is not included in an evaluation workspace')
    const categories = categoriesOfLens(query.lens).map((c) => ({
      key: c.key,
      display_name: c.display_name,
      description: c.description,
      owasp: c.owasp,
      atlas: c.atlas,
      severity: c.severity
    }))
    return ok(200, CategoryList, { categories, lens: query.lens }, { 'cache-control': 'private, max-age=3600' })
  }
} satisfies RouteTable<'listCategories'>
