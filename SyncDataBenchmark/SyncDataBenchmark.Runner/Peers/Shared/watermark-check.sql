-- A change sync starts from the target's watermark: without one (no verified full sync yet) there is nothing to start from.
do $$
begin
    if not exists (select from sync_watermarks where table_name = '{{table}}') then
        raise exception 'the target has no watermark for {{table}}: a verified full sync must run first';
    end if;
end
$$;
