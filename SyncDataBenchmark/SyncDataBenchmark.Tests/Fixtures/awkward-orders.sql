-- OrdersLab's source (OrdersMatrixTests): after seed_orders, the orders most likely to break an encoder, a parser, a
-- library's type mapping or a COPY escape, each of which every combination must carry exactly. Ids from 1000001.
insert into orders (id, customer_id, status, total, discount, exchange_rate, currency, placed_at, delivery_date, tags,
                    attributes, note, attachment, item_count, is_gift, shipping_address)
overriding system value
values
    -- decimal's edges: its largest integer, its 28 decimal places, trailing zeros (scale is part of the value), zero with a scale.
    (1000001, '00000000-0000-0000-0000-000000000000', 'pending', 999999999999999.9999, -999999999999999.9999,
     79228162514264337593543950335, 'EUR', '2024-02-29 23:59:59.999999+00', '2024-02-29', '{}',
     '{}', null, null, 0, false, ''),
    (1000002, 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'refunded', 0.0000, 0.0000, 7.9228162514264337593543950335, 'ÄÖÜ',
     '0001-01-01 00:00:00.000001+00', '0001-01-02', '{NULL}',
     '[]', '', '\x'::bytea, -2147483648, true, ' '),
    (1000003, '01234567-89ab-cdef-0123-456789abcdef', 'cancelled', -0.0001, null, 0.0000000000000000000000000001, '€$¥',
     '9999-12-31 23:59:59.999999+00', '9999-12-30', '{NULL,NULL}',
     '"a bare string"', 'tab	and
newline and \backslash and "quotes" and \N', '\x00'::bytea, 2147483647, false, 'x'),
    -- ±infinity: Npgsql reads them as DateTime/DateOnly.MaxValue/MinValue and writes those back as ±infinity.
    (1000004, gen_random_uuid(), 'paid', 1.5000, 0.5000, -1.500000, 'GBP', 'infinity', 'infinity',
     '{"","NULL","a,b","{}","\"q\"","back\\slash",NULL}',
     '{"esc": "quote \" backslash \\ slash \/ tab \t nl \n ctl \u0001 \u001f é \u00e9 astral \ud83d\ude80", "": "",
       "nested": {"a": [1, 2.50, -0.0, 1e400, 0.000001, null, true, false, {"deep": ["x", {}]}]},
       "big": 123456789012345678901234567890.123456789, "dup": 1, "dup": 2}',
     'planes: BMP Ж 漢 — SMP 𝄞 😀 𓀀 — SIP 𠀀 𪛖 — TIP 𰀀 — SSP 󠀁 — PUA 󰀀 􏿽',
     '\x00ff00fe7f80000000'::bytea, 1, true, 'plane 1 🏠 plane 2 𠜎'),
    (1000005, gen_random_uuid(), 'shipped', 12.3400, null, 1, 'USD', '-infinity', '-infinity',
     '{"𝄞","😀","𠀀","󰀀"," "}',
     '{"emoji": "😀", "escaped emoji": "\ud83d\ude00", "zwj": "👩‍🚀", "rtl": "שלום", "nul-free": "\u0007\b\f\r"}',
     repeat('𝄞😀𠀀 ', 20000), decode(repeat('00', 65536), 'hex'), 3, false, repeat('Ж', 3000)),
    (1000006, gen_random_uuid(), 'delivered', 0.0001, 0.0001, 0.000, 'JPY', '2000-01-01 00:00:00+00', '2000-01-01',
     '{a}', '{"n": -1.0e-10, "s": "\\\"\\", "arr": [[], {}, [[]]]}', null, null, 42, true, '\');
