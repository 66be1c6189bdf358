/**
 * The compiled row converters (src/db/rows.ts) do not run TypeORM's @AfterLoad methods or subscribers' afterLoad:
 * no entity of the app declares one (each compiles), and an entity that does is refused loudly, not loaded
 * without its listener.
 */
import { AfterLoad, Column, DataSource, Entity, EntitySubscriberInterface, EventSubscriber, PrimaryGeneratedColumn } from 'typeorm';
import { ENTITIES } from '../../entities';
import { compileHydrator } from '../../src/db/rows';

@Entity('with_after_load')
class WithAfterLoad {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  shout = '';
  @AfterLoad() loud(): void {
    this.shout = this.name.toUpperCase();
  }
}

@Entity('plain_thing')
class PlainThing {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
}

@EventSubscriber()
class PlainThingSubscriber implements EntitySubscriberInterface<PlainThing> {
  listenTo(): typeof PlainThing {
    return PlainThing;
  }
  afterLoad(entity: PlainThing): void {
    entity.name = entity.name.trim();
  }
}

async function metadataOnly(entities: Function[], subscribers: Function[] = []): Promise<DataSource> {
  const ds = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities, subscribers });
  await (ds as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return ds;
}

describe('compiled hydrators and load listeners', () => {
  it('every entity of the app compiles (none has @AfterLoad or an afterLoad subscriber)', async () => {
    const ds = await metadataOnly(ENTITIES as Function[]);
    for (const entity of ENTITIES) expect(() => compileHydrator(ds, entity as new () => object)).not.toThrow();
  });

  it('an entity with @AfterLoad is refused', async () => {
    const ds = await metadataOnly([WithAfterLoad]);
    expect(() => compileHydrator(ds, WithAfterLoad)).toThrow(/WithAfterLoad has @AfterLoad listeners/);
  });

  it('an entity an afterLoad subscriber listens to is refused; others are not', async () => {
    const ds = await metadataOnly([PlainThing, WithAfterLoad], [PlainThingSubscriber]);
    expect(() => compileHydrator(ds, PlainThing)).toThrow(/PlainThing has @AfterLoad listeners or afterLoad subscribers/);
  });
});
