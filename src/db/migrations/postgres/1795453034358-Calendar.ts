import { MigrationInterface, QueryRunner } from 'typeorm';

export class Calendar1795453034358 implements MigrationInterface {
    name = 'Calendar1795453034358';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"calendar_events\" (\"id\" integer NOT NULL, \"author_id\" integer, \"status\" character varying(16) NOT NULL DEFAULT 'draft', \"status_before_trash\" character varying(16), \"title\" text NOT NULL DEFAULT '', \"description\" text NOT NULL DEFAULT '', \"excerpt\" text NOT NULL DEFAULT '', \"slug\" character varying(200) NOT NULL, \"password\" character varying(255), \"date_local\" character varying(19) NOT NULL, \"date_utc\" TIMESTAMP, \"modified_at\" TIMESTAMP NOT NULL, \"image\" character varying(2048), \"start_local\" character varying(19) NOT NULL, \"end_local\" character varying(19) NOT NULL, \"start_utc\" TIMESTAMP NOT NULL, \"end_utc\" TIMESTAMP NOT NULL, \"timezone\" character varying(64) NOT NULL DEFAULT '', \"all_day\" boolean NOT NULL DEFAULT false, \"cost\" character varying(255) NOT NULL DEFAULT '', \"cost_values\" text, \"currency_symbol\" character varying(16) NOT NULL DEFAULT '', \"currency_code\" character varying(8) NOT NULL DEFAULT '', \"currency_position\" character varying(8) NOT NULL DEFAULT '', \"website\" character varying(2048), \"show_map\" boolean NOT NULL DEFAULT true, \"show_map_link\" boolean NOT NULL DEFAULT true, \"hide_from_listings\" boolean NOT NULL DEFAULT false, \"sticky\" boolean NOT NULL DEFAULT false, \"featured\" boolean NOT NULL DEFAULT false, \"post_parent_id\" integer, \"origin_ids\" text, CONSTRAINT \"PK_faf5391d232322a87cdd1c6f30c\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_author\" ON \"calendar_events\"  (\"author_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_parent\" ON \"calendar_events\"  (\"post_parent_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_featured\" ON \"calendar_events\"  (\"featured\", \"start_local\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_end\" ON \"calendar_events\"  (\"end_local\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_start\" ON \"calendar_events\"  (\"start_local\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_status_start\" ON \"calendar_events\"  (\"status\", \"start_local\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_events_slug\" ON \"calendar_events\"  (\"slug\") ");
        await queryRunner.query("CREATE TABLE \"calendar_organizers\" (\"id\" integer NOT NULL, \"author_id\" integer, \"status\" character varying(16) NOT NULL DEFAULT 'draft', \"status_before_trash\" character varying(16), \"title\" text NOT NULL DEFAULT '', \"description\" text NOT NULL DEFAULT '', \"excerpt\" text NOT NULL DEFAULT '', \"slug\" character varying(200) NOT NULL, \"password\" character varying(255), \"date_local\" character varying(19) NOT NULL, \"date_utc\" TIMESTAMP, \"modified_at\" TIMESTAMP NOT NULL, \"image\" character varying(2048), \"phone\" character varying(64) NOT NULL DEFAULT '', \"website\" character varying(2048) NOT NULL DEFAULT '', \"email\" character varying(255) NOT NULL DEFAULT '', CONSTRAINT \"PK_e0d3d3bb0caa6db51882af4fc25\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_organizers_status\" ON \"calendar_organizers\"  (\"status\", \"date_local\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_organizers_slug\" ON \"calendar_organizers\"  (\"slug\") ");
        await queryRunner.query("CREATE TABLE \"calendar_terms\" (\"id\" SERIAL NOT NULL, \"taxonomy\" character varying(16) NOT NULL, \"name\" character varying(200) NOT NULL, \"slug\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"parent_id\" integer, \"term_group\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_d48ab587ee199f1867f4aab329d\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_terms_parent\" ON \"calendar_terms\"  (\"parent_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_terms_taxonomy_name\" ON \"calendar_terms\"  (\"taxonomy\", \"name\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_terms_taxonomy_slug\" ON \"calendar_terms\"  (\"taxonomy\", \"slug\") ");
        await queryRunner.query("CREATE TABLE \"calendar_venues\" (\"id\" integer NOT NULL, \"author_id\" integer, \"status\" character varying(16) NOT NULL DEFAULT 'draft', \"status_before_trash\" character varying(16), \"title\" text NOT NULL DEFAULT '', \"description\" text NOT NULL DEFAULT '', \"excerpt\" text NOT NULL DEFAULT '', \"slug\" character varying(200) NOT NULL, \"password\" character varying(255), \"date_local\" character varying(19) NOT NULL, \"date_utc\" TIMESTAMP, \"modified_at\" TIMESTAMP NOT NULL, \"image\" character varying(2048), \"address\" character varying(255) NOT NULL DEFAULT '', \"city\" character varying(255) NOT NULL DEFAULT '', \"country\" character varying(255) NOT NULL DEFAULT '', \"province\" character varying(255) NOT NULL DEFAULT '', \"state\" character varying(255) NOT NULL DEFAULT '', \"stateprovince\" character varying(255) NOT NULL DEFAULT '', \"zip\" character varying(64) NOT NULL DEFAULT '', \"phone\" character varying(64) NOT NULL DEFAULT '', \"website\" character varying(2048) NOT NULL DEFAULT '', \"show_map\" boolean NOT NULL DEFAULT true, \"show_map_link\" boolean NOT NULL DEFAULT true, \"geo_lat\" double precision, \"geo_lng\" double precision, CONSTRAINT \"PK_6efe1e625082955d0bc83f5e4d2\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_venues_geo\" ON \"calendar_venues\"  (\"geo_lat\", \"geo_lng\") ");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_venues_status\" ON \"calendar_venues\"  (\"status\", \"date_local\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_venues_slug\" ON \"calendar_venues\"  (\"slug\") ");
        await queryRunner.query("CREATE TABLE \"calendar_event_venues\" (\"event_id\" integer NOT NULL, \"venue_id\" integer NOT NULL, \"position\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_e17240db292f11070fb163f0e85\" PRIMARY KEY (\"event_id\", \"venue_id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_event_venues_venue\" ON \"calendar_event_venues\"  (\"venue_id\", \"event_id\") ");
        await queryRunner.query("CREATE TABLE \"calendar_event_organizers\" (\"event_id\" integer NOT NULL, \"organizer_id\" integer NOT NULL, \"position\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_274c40d1ed6f8592aa5610e5b19\" PRIMARY KEY (\"event_id\", \"organizer_id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_event_organizers_organizer\" ON \"calendar_event_organizers\"  (\"organizer_id\", \"event_id\") ");
        await queryRunner.query("CREATE TABLE \"calendar_event_terms\" (\"event_id\" integer NOT NULL, \"term_id\" integer NOT NULL, CONSTRAINT \"PK_0e09db4fdfccb86b2c199305071\" PRIMARY KEY (\"event_id\", \"term_id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_event_terms_term\" ON \"calendar_event_terms\"  (\"term_id\", \"event_id\") ");
        await queryRunner.query("CREATE TABLE \"calendar_posts\" (\"id\" SERIAL NOT NULL, \"kind\" character varying(16) NOT NULL, CONSTRAINT \"PK_ebca61ccec2853e574dc59b3977\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_calendar_posts_kind\" ON \"calendar_posts\"  (\"kind\") ");
        await queryRunner.query("CREATE TABLE \"calendar_translations\" (\"id\" SERIAL NOT NULL, \"kind\" character varying(16) NOT NULL, \"object_id\" integer NOT NULL, \"language\" character varying(8) NOT NULL, \"title\" text, \"description\" text, \"excerpt\" text, \"slug\" character varying(200), CONSTRAINT \"PK_e3c03cacb042e7f53eeb10cf1d6\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_translations_slug\" ON \"calendar_translations\"  (\"kind\", \"language\", \"slug\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_calendar_translations_object_language\" ON \"calendar_translations\"  (\"kind\", \"object_id\", \"language\") ");
        await queryRunner.query("ALTER TABLE \"calendar_event_venues\" ADD CONSTRAINT \"FK_e457aef63147e4d504242412caf\" FOREIGN KEY (\"event_id\") REFERENCES \"calendar_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"calendar_event_venues\" ADD CONSTRAINT \"FK_54c965a4fed39eb04869edf714e\" FOREIGN KEY (\"venue_id\") REFERENCES \"calendar_venues\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"calendar_event_organizers\" ADD CONSTRAINT \"FK_22e5941dd36dbac928235635342\" FOREIGN KEY (\"event_id\") REFERENCES \"calendar_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"calendar_event_organizers\" ADD CONSTRAINT \"FK_28e70701a136dc258b190eb3a25\" FOREIGN KEY (\"organizer_id\") REFERENCES \"calendar_organizers\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"calendar_event_terms\" ADD CONSTRAINT \"FK_bf6be8c5aea5b684768738c4960\" FOREIGN KEY (\"event_id\") REFERENCES \"calendar_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"calendar_event_terms\" ADD CONSTRAINT \"FK_dfec81e6693e7c9a7aec91b1f98\" FOREIGN KEY (\"term_id\") REFERENCES \"calendar_terms\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"calendar_event_terms\" DROP CONSTRAINT \"FK_dfec81e6693e7c9a7aec91b1f98\"");
        await queryRunner.query("ALTER TABLE \"calendar_event_terms\" DROP CONSTRAINT \"FK_bf6be8c5aea5b684768738c4960\"");
        await queryRunner.query("ALTER TABLE \"calendar_event_organizers\" DROP CONSTRAINT \"FK_28e70701a136dc258b190eb3a25\"");
        await queryRunner.query("ALTER TABLE \"calendar_event_organizers\" DROP CONSTRAINT \"FK_22e5941dd36dbac928235635342\"");
        await queryRunner.query("ALTER TABLE \"calendar_event_venues\" DROP CONSTRAINT \"FK_54c965a4fed39eb04869edf714e\"");
        await queryRunner.query("ALTER TABLE \"calendar_event_venues\" DROP CONSTRAINT \"FK_e457aef63147e4d504242412caf\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_translations_object_language\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_translations_slug\"");
        await queryRunner.query("DROP TABLE \"calendar_translations\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_posts_kind\"");
        await queryRunner.query("DROP TABLE \"calendar_posts\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_event_terms_term\"");
        await queryRunner.query("DROP TABLE \"calendar_event_terms\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_event_organizers_organizer\"");
        await queryRunner.query("DROP TABLE \"calendar_event_organizers\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_event_venues_venue\"");
        await queryRunner.query("DROP TABLE \"calendar_event_venues\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_venues_slug\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_venues_status\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_venues_geo\"");
        await queryRunner.query("DROP TABLE \"calendar_venues\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_terms_taxonomy_slug\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_terms_taxonomy_name\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_terms_parent\"");
        await queryRunner.query("DROP TABLE \"calendar_terms\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_organizers_slug\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_organizers_status\"");
        await queryRunner.query("DROP TABLE \"calendar_organizers\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_calendar_events_slug\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_status_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_end\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_featured\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_parent\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_author\"");
        await queryRunner.query("DROP TABLE \"calendar_events\"");
    }
}
