/**
 * ListQuery (src/services/common/list-query.ts): the statement text of a list is built once per shape and
 * re-bound by name; different shapes never share a text, and a reused text gives the rows a freshly built
 * query builder gives.
 */
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { entityColumns } from '../../src/db/rows';
import { cachedStatementCount, compileStatement, ListQuery } from '../../src/services/common/list-query';
import { IdentityFixtures } from '../fixtures/identity';
import { openTestDatabase, TestDatabase } from '../helpers/db';

describe('compileStatement', () => {
  it('turns named parameters into placeholders bound by name, as TypeORM\u2019s drivers would', () => {
    const sql = 'SELECT 1 WHERE a = :a AND b IN (:...bs) AND c = :a AND d = :flag AND e = :when AND f = :unbound';
    const params = { a: 5, bs: ['x', 'y'], flag: true, when: new Date('2024-01-02T03:04:05.006Z') };
    const lite = compileStatement('sqlite', sql, params);
    expect(lite.text).toBe('SELECT 1 WHERE a = ? AND b IN (?, ?) AND c = ? AND d = ? AND e = ? AND f = :unbound');
    expect(lite.bind(params)).toEqual([5, 'x', 'y', 5, 1, '2024-01-02 03:04:05.006']);
    expect(lite.bind({ ...params, a: 7, bs: ['p', 'q'], flag: false })).toEqual([7, 'p', 'q', 7, 0, '2024-01-02 03:04:05.006']);
    const pg = compileStatement('postgres', sql, params);
    expect(pg.text).toBe('SELECT 1 WHERE a = $1 AND b IN ($2, $3) AND c = $1 AND d = $4 AND e = $5 AND f = :unbound');
    expect(pg.bind(params)).toEqual([5, 'x', 'y', true, params.when]);
  });

  it('refuses to run with a parameter missing', () => {
    const st = compileStatement('sqlite', 'SELECT :a, :b', { a: 1, b: 2 });
    expect(() => st.bind({ a: 1 })).toThrow(/b is not bound/);
  });
});

describe('ListQuery', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let org: AccountEntity;
  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    org = await f.org('lqorg');
    for (let i = 0; i < 5; i++) await f.repo(org, { name: `lq${i}`, private: i % 2 === 0, secretScanning: i < 3 });
  });
  afterAll(() => db.drop());

  const repos = () => new ListQuery(db.dataSource.manager, RepositoryEntity, 'r').andWhere('r.owner_id = :owner', { owner: org.id });
  const names = async (q: ListQuery<RepositoryEntity>) => (await q.getRawMany()).map((r) => r.r_name);

  it('different fragments, bound names or array lengths never share a text', () => {
    const texts = [
      repos().statementText(),
      repos().andWhere('r.private = :p', { p: true }).statementText(),
      repos().andWhere('r.secret_scanning = :p', { p: true }).statementText(),
      repos().andWhere('r.id IN (:...ids)', { ids: [1] }).statementText(),
      repos().andWhere('r.id IN (:...ids)', { ids: [1, 2] }).statementText(),
      repos().andWhere('r.id NOT IN (:...ids)', { ids: [1, 2] }).statementText(),
      repos().andWhere('1 = 0').statementText(),
      repos().orderBy('r.name_lower', 'ASC').statementText(),
      repos().orderBy('r.name_lower', 'DESC').statementText(),
      repos().orderBy('r.name_lower', 'DESC').limit(3).statementText(),
      repos().orderBy('r.name_lower', 'DESC').limit(3).offset(3).statementText(),
      repos().addInlineCount(repos(), '__total').statementText(),
      repos().addInlineCount(repos().andWhere('r.private = :p', { p: true }), '__total').statementText(),
    ];
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('a reused text with new values gives what a fresh query builder gives', async () => {
    const built = async (p: boolean, s: boolean) =>
      (
        await db.dataSource
          .getRepository(RepositoryEntity)
          .createQueryBuilder('r')
          .where('r.owner_id = :owner', { owner: org.id })
          .andWhere('r.private = :p AND r.secret_scanning = :s', { p, s })
          .orderBy('r.name_lower', 'ASC')
          .getMany()
      ).map((r) => r.name);
    for (const [p, s] of [
      [true, true],
      [false, true],
      [true, false],
      [false, false],
      [true, true],
    ] as const) {
      const q = repos().andWhere('r.private = :p AND r.secret_scanning = :s', { p, s }).orderBy('r.name_lower', 'ASC');
      expect(await names(q)).toEqual(await built(p, s));
    }
    const all = repos().orderBy('r.name_lower', 'ASC');
    expect(await names(all.clone().limit(2).offset(1))).toEqual(['lq1', 'lq2']);
    expect(await names(all.clone().limit(2).offset(3))).toEqual(['lq3', 'lq4']);
    expect(await repos().andWhere('r.private = :p', { p: true }).count()).toBe(3);
    expect(await repos().andWhere('r.private = :p', { p: false }).count()).toBe(2);
  });

  it('rowsAsJson: the page read as one value gives the rows, order and inline total of the plain statement', async () => {
    const cols = entityColumns(db.dataSource.manager, RepositoryEntity, 'r', 'r_');
    const owner = entityColumns(db.dataSource.manager, AccountEntity, 'o', 'o_');
    const page = (direction: 'ASC' | 'DESC', asJson: boolean, limit: number, offset = 0) => {
      const q = repos().andWhere('r.name_lower <> :skip', { skip: 'nothing' });
      const count = q.clone();
      q.select(cols.jsonRow, 'r_row').addSelect(`(SELECT ${owner.jsonRow} FROM accounts o WHERE o.id = r.owner_id AND r.private = :p)`, 'o_row');
      q.setParameters({ p: true });
      if (asJson) q.rowsAsJson();
      return q.orderBy('r.name_lower', direction).addOrderBy('r.id', direction).limit(limit).offset(offset).addInlineCount(count, '__total');
    };
    const read = async (q: ListQuery<RepositoryEntity>) =>
      (await q.getRawMany()).map((row, i) => ({
        repo: cols.hydrateJsonArray(row.r_row),
        owner: owner.hydrateJsonArray(row.o_row),
        total: i === 0 ? Number(row.__total) : undefined,
      }));
    for (const [direction, limit, offset] of [['ASC', 3, 0], ['DESC', 4, 1], ['ASC', 10, 0], ['DESC', 2, 4], ['ASC', 5, 9]] as const) {
      const plain = await read(page(direction, false, limit, offset));
      const grouped = await read(page(direction, true, limit, offset));
      expect(grouped).toEqual(plain);
      expect(grouped.map((x) => x.repo?.name)).toEqual(
        (direction === 'ASC' ? ['lq0', 'lq1', 'lq2', 'lq3', 'lq4'] : ['lq4', 'lq3', 'lq2', 'lq1', 'lq0']).slice(offset, offset + limit),
      );
      // The owner only where the repository is private (NULL elsewhere), and the total on the first row.
      expect(grouped.map((x) => x.owner?.login ?? null)).toEqual(grouped.map((x) => (x.repo?.private ? 'lqorg' : null)));
      if (grouped.length) expect(grouped[0].total).toBe(5);
    }
    expect(await page('ASC', true, 3, 7).getRawMany()).toEqual([]);
  });

  it('readGrouped: one text per row, split at U+001E, which values holding every control character never break', async () => {
    const tricky = `rs\u001e us\u001f nul-free \u0001\u0002 tab\t nl\n cr\r quote" backslash\\ unicode \u2028 é 😀 ,][`;
    const odd = await f.repo(org, { name: 'lq-odd', private: false });
    await db.dataSource.getRepository(RepositoryEntity).update({ id: odd.id }, { description: tricky });
    const cols = entityColumns(db.dataSource.manager, RepositoryEntity, 'r', 'r_');
    const q = () => repos().select(cols.jsonRow, 'r_row').rowsAsJson().orderBy('r.name_lower', 'ASC').addOrderBy('r.id', 'ASC').limit(10);
    const grouped = (await q().readGrouped())!;
    expect(grouped.texts).toHaveLength(6);
    expect(grouped.source).toBe(grouped.texts.join('\u001e'));
    const rows = grouped.texts.map((text) => cols.hydrateJsonArray(q().parseRow(text).r_row)!);
    expect(rows.map((r) => r.name)).toEqual(['lq-odd', 'lq0', 'lq1', 'lq2', 'lq3', 'lq4']);
    expect(rows[0].description).toBe(tricky);
    // The same rows give the same text; a changed column gives another.
    expect((await q().readGrouped())!.source).toBe(grouped.source);
    await db.dataSource.getRepository(RepositoryEntity).update({ id: odd.id }, { description: `${tricky}!` });
    expect((await q().readGrouped())!.source).not.toBe(grouped.source);
    await db.dataSource.getRepository(RepositoryEntity).delete({ id: odd.id });
    expect(await repos().andWhere('1 = 0').select(cols.jsonRow, 'r_row').rowsAsJson().readGrouped()).toBeNull();
  });

  it('readHits: the page, order and total of a plain page and count, in one statement re-bound for every page', async () => {
    const cols = entityColumns(db.dataSource.manager, RepositoryEntity, 'r', 'r_');
    // A common table expression the conditions read (here: the repositories with secret scanning on).
    const scanned = () =>
      repos()
        .with('scanned(id)', 'SELECT id FROM repositories WHERE owner_id = :owner AND secret_scanning = :on', { on: true })
        .andWhere('r.id IN (SELECT id FROM scanned)');
    const expected = ['lq0', 'lq1', 'lq2'];
    expect(await scanned().count()).toBe(3);
    for (const direction of ['ASC', 'DESC'] as const) {
      const names = direction === 'ASC' ? expected : [...expected].reverse();
      const sizes = new Set<number>();
      for (const [limit, offset] of [[2, 0], [2, 2], [2, 4], [5, 0], [5, 1]] as const) {
        const q = scanned()
          .select(cols.jsonRow, 'r_row')
          // A selection may read the page's keys (`page`, its key column named as the primary column).
          .addSelect('(SELECT COUNT(*) FROM page pi)', 'on_page')
          .orderBy('r.name_lower', direction)
          .addOrderBy('r.id', direction)
          .limit(limit)
          .offset(offset);
        const before = cachedStatementCount();
        const rows = await q.readHits('total');
        // The first page of a direction compiles its text; the others re-bind it. On PostgreSQL the page size is part
        // of the text (a generic plan costed for the page), so each new size compiles once and its pages re-bind.
        const postgres = db.dataSource.options.type === 'postgres';
        if (sizes.size) expect(cachedStatementCount()).toBe(before + (postgres && !sizes.has(limit) ? 1 : 0));
        sizes.add(limit);
        expect(rows.map((r) => cols.hydrateJsonArray(r.r_row)!.name)).toEqual(names.slice(offset, offset + limit));
        // Every row carries the number of matches and the page's size; no rows, no total.
        expect(rows.map((r) => [Number(r.total), Number(r.on_page)])).toEqual(rows.map(() => [3, rows.length]));
      }
    }
    // The text says what it does: the matches found once, then the page of them.
    expect(scanned().select(cols.jsonRow, 'r_row').orderBy('r.name_lower', 'ASC').limit(1).offset(0).statementText()).toMatch(/^WITH scanned\(id\) AS/);
    await expect(scanned().select(cols.jsonRow, 'r_row').readHits('total')).rejects.toThrow(/needs an order/);
  });

  it('countWith: the total is the given aggregate, inline and alone', async () => {
    const sumIds = repos().countWith('COALESCE(SUM(r.id), 0)');
    const ids = (await db.dataSource.getRepository(RepositoryEntity).find({ where: { ownerId: org.id } })).map((r) => r.id);
    expect(await sumIds.count()).toBe(ids.reduce((a, b) => a + b, 0));
    expect(await repos().andWhere('1 = 0').countWith('COALESCE(SUM(r.id), 0)').count()).toBe(0);
  });
});
