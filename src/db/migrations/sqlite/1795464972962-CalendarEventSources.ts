import { MigrationInterface, QueryRunner } from 'typeorm';

export class CalendarEventSources1795464972962 implements MigrationInterface {
    name = 'CalendarEventSources1795464972962';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"calendar_event_sources\" (\"uid\" varchar(255) PRIMARY KEY NOT NULL, \"event_id\" integer NOT NULL)");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_event_sources_event\" ON \"calendar_event_sources\" (\"event_id\") ");
        await queryRunner.query("DROP INDEX \"UQ_calendar_event_sources_event\"");
        await queryRunner.query("CREATE TABLE \"temporary_calendar_event_sources\" (\"uid\" varchar(255) PRIMARY KEY NOT NULL, \"event_id\" integer NOT NULL, CONSTRAINT \"FK_00b91a7c1b273802639e975b3fe\" FOREIGN KEY (\"event_id\") REFERENCES \"calendar_events\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"temporary_calendar_event_sources\"(\"uid\", \"event_id\") SELECT \"uid\", \"event_id\" FROM \"calendar_event_sources\"");
        await queryRunner.query("DROP TABLE \"calendar_event_sources\"");
        await queryRunner.query("ALTER TABLE \"temporary_calendar_event_sources\" RENAME TO \"calendar_event_sources\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_event_sources_event\" ON \"calendar_event_sources\" (\"event_id\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_calendar_event_sources_event\"");
        await queryRunner.query("ALTER TABLE \"calendar_event_sources\" RENAME TO \"temporary_calendar_event_sources\"");
        await queryRunner.query("CREATE TABLE \"calendar_event_sources\" (\"uid\" varchar(255) PRIMARY KEY NOT NULL, \"event_id\" integer NOT NULL)");
        await queryRunner.query("INSERT INTO \"calendar_event_sources\"(\"uid\", \"event_id\") SELECT \"uid\", \"event_id\" FROM \"temporary_calendar_event_sources\"");
        await queryRunner.query("DROP TABLE \"temporary_calendar_event_sources\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_event_sources_event\" ON \"calendar_event_sources\" (\"event_id\") ");
        await queryRunner.query("DROP INDEX \"UQ_calendar_event_sources_event\"");
        await queryRunner.query("DROP TABLE \"calendar_event_sources\"");
    }
}
