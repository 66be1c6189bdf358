/**
 * One generic Relay connection factory: XConnection { edges { cursor node } nodes pageInfo totalCount }.
 * Services return a Page (keyset pagination); `toConnection` adapts it.
 */
import { ArgsType, ClassType, Field, Int, ObjectType } from 'type-graphql';
import { IsOptional, Max, MaxLength, Min } from 'class-validator';
import type { Page, PageArgs } from '../../src/services/common/pagination';

@ObjectType('PageInfo', { simpleResolvers: true, description: 'Information about pagination in a connection.' })
export class PageInfo {
  @Field() hasNextPage: boolean;
  @Field() hasPreviousPage: boolean;
  @Field(() => String, { nullable: true }) startCursor: string | null;
  @Field(() => String, { nullable: true }) endCursor: string | null;
}

export interface ConnectionShape<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: PageInfo;
  readonly totalCount: Promise<number>;
}

const cache = new Map<string, ClassType>();

export function Connection<T extends object>(nodeType: ClassType<T> | (() => unknown), typeName: string): ClassType<ConnectionShape<T>> {
  const hit = cache.get(typeName);
  if (hit) return hit as ClassType<ConnectionShape<T>>;
  const nodeThunk = () => ((nodeType as { prototype?: unknown }).prototype ? nodeType : (nodeType as () => unknown)());

  @ObjectType(`${typeName}Edge`, { simpleResolvers: true, description: `An edge in a ${typeName} connection.` })
  class Edge {
    @Field({ description: 'A cursor for use in pagination.' }) cursor: string;
    @Field(() => nodeThunk() as ClassType, { description: 'The item at the end of the edge.' }) node: T;
  }

  @ObjectType(`${typeName}Connection`, { simpleResolvers: true, description: `A list of ${typeName} items.` })
  class Conn {
    @Field(() => [Edge], { description: 'A list of edges.' }) edges: Edge[];
    @Field(() => [nodeThunk() as ClassType], { description: 'A list of nodes.' }) nodes: T[];
    @Field(() => PageInfo, { description: 'Information to aid in pagination.' }) pageInfo: PageInfo;
    @Field(() => Int, { description: 'Identifies the total count of items in the connection.' })
    totalCount: Promise<number>;
  }
  cache.set(typeName, Conn);
  return Conn as unknown as ClassType<ConnectionShape<T>>;
}

/**
 * A page as a connection. Cursors are built only when `edges` or `pageInfo` is read (once): a client asking
 * for `nodes` and `totalCount` alone pays for no cursor (base64 of JSON per item).
 */
export function toConnection<T extends object>(page: Page<T>): ConnectionShape<T> {
  let edges: Array<{ cursor: string; node: T }> | undefined;
  const edgesOf = () => (edges ??= page.items.map((node) => ({ cursor: page.cursorOf(node), node })));
  return {
    get edges() {
      return edgesOf();
    },
    nodes: page.items,
    get pageInfo() {
      const e = edgesOf();
      return {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: page.hasPreviousPage,
        startCursor: e[0]?.cursor ?? null,
        endCursor: e[e.length - 1]?.cursor ?? null,
      };
    },
    get totalCount() {
      return page.totalCount();
    },
  };
}

@ArgsType()
export class ConnectionArgs implements PageArgs {
  @Field(() => Int, { nullable: true, description: 'Returns the first _n_ elements from the list (at most 100).' })
  @IsOptional()
  @Min(0)
  @Max(100)
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Returns the elements that come after the specified cursor.' })
  @IsOptional()
  @MaxLength(500)
  after?: string | null;

  @Field(() => Int, { nullable: true, description: 'Returns the last _n_ elements from the list (at most 100).' })
  @IsOptional()
  @Min(0)
  @Max(100)
  last?: number | null;

  @Field(() => String, { nullable: true, description: 'Returns the elements that come before the specified cursor.' })
  @IsOptional()
  @MaxLength(500)
  before?: string | null;
}
