import { MigrationInterface, QueryRunner } from 'typeorm';

export class CalendarTermCount1795456435981 implements MigrationInterface {
    name = 'CalendarTermCount1795456435981';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_calendar_terms_taxonomy_slug\"");
        await queryRunner.query("DROP INDEX \"IDX_calendar_terms_taxonomy_name\"");
        await queryRunner.query("DROP INDEX \"IDX_calendar_terms_parent\"");
        await queryRunner.query("CREATE TABLE \"temporary_calendar_terms\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"taxonomy\" varchar(16) NOT NULL, \"name\" varchar(200) NOT NULL, \"slug\" varchar(200) NOT NULL, \"description\" text NOT NULL DEFAULT (''), \"parent_id\" integer, \"term_group\" integer NOT NULL DEFAULT (0), \"count\" integer NOT NULL DEFAULT (0))");
        await queryRunner.query("INSERT INTO \"temporary_calendar_terms\"(\"id\", \"taxonomy\", \"name\", \"slug\", \"description\", \"parent_id\", \"term_group\") SELECT \"id\", \"taxonomy\", \"name\", \"slug\", \"description\", \"parent_id\", \"term_group\" FROM \"calendar_terms\"");
        await queryRunner.query("DROP TABLE \"calendar_terms\"");
        await queryRunner.query("ALTER TABLE \"temporary_calendar_terms\" RENAME TO \"calendar_terms\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_terms_taxonomy_slug\" ON \"calendar_terms\" (\"taxonomy\", \"slug\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_terms_taxonomy_name\" ON \"calendar_terms\" (\"taxonomy\", \"name\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_terms_parent\" ON \"calendar_terms\" (\"parent_id\") ");
        // Existing terms get their count (published events linked), as the services keep it from now on.
        await queryRunner.query("UPDATE \"calendar_terms\" SET \"count\" = (SELECT COUNT(*) FROM \"calendar_event_terms\" l JOIN \"calendar_events\" e ON e.\"id\" = l.\"event_id\" WHERE e.\"status\" = 'publish' AND l.\"term_id\" = \"calendar_terms\".\"id\")");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"IDX_calendar_terms_parent\"");
        await queryRunner.query("DROP INDEX \"IDX_calendar_terms_taxonomy_name\"");
        await queryRunner.query("DROP INDEX \"UQ_calendar_terms_taxonomy_slug\"");
        await queryRunner.query("ALTER TABLE \"calendar_terms\" RENAME TO \"temporary_calendar_terms\"");
        await queryRunner.query("CREATE TABLE \"calendar_terms\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"taxonomy\" varchar(16) NOT NULL, \"name\" varchar(200) NOT NULL, \"slug\" varchar(200) NOT NULL, \"description\" text NOT NULL DEFAULT (''), \"parent_id\" integer, \"term_group\" integer NOT NULL DEFAULT (0))");
        await queryRunner.query("INSERT INTO \"calendar_terms\"(\"id\", \"taxonomy\", \"name\", \"slug\", \"description\", \"parent_id\", \"term_group\") SELECT \"id\", \"taxonomy\", \"name\", \"slug\", \"description\", \"parent_id\", \"term_group\" FROM \"temporary_calendar_terms\"");
        await queryRunner.query("DROP TABLE \"temporary_calendar_terms\"");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_terms_parent\" ON \"calendar_terms\" (\"parent_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_terms_taxonomy_name\" ON \"calendar_terms\" (\"taxonomy\", \"name\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_terms_taxonomy_slug\" ON \"calendar_terms\" (\"taxonomy\", \"slug\") ");
    }
}
