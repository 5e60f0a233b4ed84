-- The subscription's publication and slot, untimed (Peers/Shared/subscription-source-setup.sql).
{{subscription_source_setup}}
