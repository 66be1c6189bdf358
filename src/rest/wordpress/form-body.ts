/**
 * `application/x-www-form-urlencoded` bodies as PHP reads them into `$_POST` (what WordPress REST handlers
 * see): `a=1&a=2` keeps the last value, `a[]=1&a[]=2` and `a[0]=1&a[1]=2` are lists, `venue[city]=X` an object,
 * nesting allowed (`organizer[0][name]=Y`). Parsed and bounded by the shared bracket parser (../bracket-params.ts).
 */
export { parseBracketParams as parseFormBody } from '../bracket-params';
