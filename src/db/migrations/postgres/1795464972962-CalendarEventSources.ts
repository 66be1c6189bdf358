import { MigrationInterface, QueryRunner } from 'typeorm';

export class CalendarEventSources1795464972962 implements MigrationInterface {
    name = 'CalendarEventSources1795464972962';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"calendar_event_sources\" (\"uid\" character varying(255) NOT NULL, \"event_id\" integer NOT NULL, CONSTRAINT \"PK_782a0776e6431298fc1f3d0ae1f\" PRIMARY KEY (\"uid\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_event_sources_event\" ON \"calendar_event_sources\"  (\"event_id\") ");
        await queryRunner.query("ALTER TABLE \"calendar_event_sources\" ADD CONSTRAINT \"FK_00b91a7c1b273802639e975b3fe\" FOREIGN KEY (\"event_id\") REFERENCES \"calendar_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"calendar_event_sources\" DROP CONSTRAINT \"FK_00b91a7c1b273802639e975b3fe\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_event_sources_event\"");
        await queryRunner.query("DROP TABLE \"calendar_event_sources\"");
    }
}
